// Where a run's items come from: an array input, a file input (csv, jsonl, json) read as a stream,
// or, without an `items` source, the inputs themselves as the one item. Everything is an async
// iterable so that a 1 GiB file never sits in memory.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { parse as parseCsv } from "csv-parse";
import { openFileStream } from "../files/refs";
import type { OutputFormat, WorkflowDefinition } from "./schema";

/** The input could not be read: the run fails with this (caller-safe) message. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

export async function* readItems(opts: {
  definition: WorkflowDefinition;
  inputs: Record<string, unknown>;
  organizationId: string;
  agentId: string;
}): AsyncGenerator<unknown> {
  const { definition: def, inputs } = opts;
  if (!def.items) {
    yield inputs;
    return;
  }
  const name = def.items.from;
  const value = inputs[name];
  const decl = def.inputs[name]!;
  if (decl.type === "array") {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) throw new InputError(`Input "${name}" is not an array.`);
    yield* value;
    return;
  }
  if (value === undefined || value === null) return;
  const fileId = (value as { file_id?: unknown }).file_id;
  if (typeof fileId !== "string") throw new InputError(`Input "${name}" is not a file reference.`);
  let stream: Readable;
  try {
    stream = (await openFileStream(fileId, { organizationId: opts.organizationId, agentId: opts.agentId })).stream;
  } catch {
    throw new InputError(`Input "${name}": file ${fileId} was not found.`);
  }
  try {
    yield* parseStream(stream, def.items.format!, name);
  } finally {
    stream.destroy();
  }
}

export async function* parseStream(stream: Readable, format: OutputFormat, name: string): AsyncGenerator<unknown> {
  const where = (detail: string) => new InputError(`Input "${name}" could not be read as ${format}: ${detail}`);
  try {
    if (format === "csv") {
      yield* stream.pipe(parseCsv({ columns: true, bom: true, skip_empty_lines: true, trim: false }));
    } else if (format === "jsonl") {
      let line = 0;
      for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
        line++;
        if (!text.trim()) continue;
        try {
          yield JSON.parse(text);
        } catch (e) {
          throw where(`line ${line}: ${(e as Error).message}`);
        }
      }
    } else {
      yield* jsonArrayElements(stream, where);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw where((e as Error).message);
  }
}

/**
 * The elements of a top-level JSON array, one at a time: a small scanner tracks nesting and strings
 * so that each element's text is cut out and parsed alone (no streaming JSON library is installed).
 */
async function* jsonArrayElements(stream: Readable, err: (d: string) => Error): AsyncGenerator<unknown> {
  let state: "start" | "between" | "value" | "done" = "start";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let buf = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream as AsyncIterable<string>) {
    for (const ch of chunk) {
      if (state === "done") {
        if (!/\s/.test(ch)) throw err("unexpected text after the top-level array");
        continue;
      }
      if (state === "start") {
        if (ch === "\uFEFF" || /\s/.test(ch)) continue;
        if (ch !== "[") throw err("the top level must be an array");
        state = "between";
        continue;
      }
      if (state === "between") {
        if (/\s/.test(ch) || ch === ",") continue;
        if (ch === "]") {
          state = "done";
          continue;
        }
        state = "value";
        buf = "";
      }
      // state === "value"
      if (inString) {
        buf += ch;
        if (escaped) escaped = false;
        else if (ch === "\\") escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === "{" || ch === "[") depth++;
      else if (ch === "}" || ch === "]") {
        if (depth === 0) {
          // the closing bracket of the top-level array ends a scalar element
          yield parseElement(buf, err);
          state = "done";
          continue;
        }
        depth--;
      } else if (ch === "," && depth === 0) {
        yield parseElement(buf, err);
        state = "between";
        continue;
      }
      buf += ch;
      if (depth === 0 && (ch === "}" || ch === "]")) {
        yield parseElement(buf, err);
        buf = "";
        state = "between";
      }
    }
  }
  if (state !== "done") throw err("unexpected end of file");
}

function parseElement(text: string, err: (d: string) => Error): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw err((e as Error).message);
  }
}
