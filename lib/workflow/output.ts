// The output file of a run (`output` in the definition): every item, in index order, with its
// status, result and error, as csv, jsonl or json. Items are read page by page and the file is
// streamed into storage, so a 100k-item run is written in bounded memory. A later pass (after
// approvals or a retry) replaces the file.
import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import { prisma } from "../db";
import { newId } from "../ids";
import { log } from "../log";
import { storage } from "../storage";
import type { OutputFormat } from "./schema";

const PAGE = 1_000;
/** csv columns are the union of the result fields of the first items (a later new field is dropped). */
const CSV_SAMPLE = 1_000;

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  json: "application/json",
};

interface Row {
  index: number;
  status: string;
  result: unknown;
  error: string | null;
}

async function* items(runId: string): AsyncGenerator<Row[]> {
  const db = await prisma();
  let after = -1;
  for (;;) {
    const page = await db.runItem.findMany({
      where: { runId, index: { gt: after } },
      orderBy: { index: "asc" },
      take: PAGE,
      select: { index: true, status: true, result: true, data: true, error: true },
    });
    if (!page.length) return;
    after = page[page.length - 1]!.index;
    yield page.map((i) => ({ index: i.index, status: i.status, result: i.result ?? i.data, error: i.error }));
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const cell = (v: unknown) =>
  v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);

async function* render(runId: string, format: OutputFormat): AsyncGenerator<string> {
  if (format === "jsonl") {
    for await (const page of items(runId)) yield page.map((r) => JSON.stringify(r) + "\n").join("");
    return;
  }
  if (format === "json") {
    let first = true;
    yield "[";
    for await (const page of items(runId)) {
      for (const r of page) {
        yield (first ? "\n" : ",\n") + JSON.stringify(r);
        first = false;
      }
    }
    yield "\n]\n";
    return;
  }
  let columns: string[] | undefined;
  for await (const page of items(runId)) {
    if (!columns) {
      const keys = new Set<string>();
      let scalar = false;
      for (const r of page.slice(0, CSV_SAMPLE)) {
        if (isObject(r.result)) Object.keys(r.result).forEach((k) => keys.add(k));
        else scalar = true;
      }
      columns = [...keys].filter((k) => !["index", "status", "error"].includes(k));
      if (scalar && !columns.includes("value")) columns.push("value");
      yield stringify([["index", "status", ...columns, "error"]]);
    }
    const cols = columns;
    yield stringify(
      page.map((r) => [
        r.index,
        r.status,
        ...cols.map((c) => cell(isObject(r.result) ? r.result[c] : c === "value" ? r.result : undefined)),
        r.error ?? "",
      ]),
    );
  }
  if (!columns) yield stringify([["index", "status", "error"]]);
}

export async function writeOutput(opts: { runId: string; output: { filename: string; format: OutputFormat } }) {
  const db = await prisma();
  const id = newId("out");
  const storageKey = `runs/${opts.runId}/${id}`;
  const { size } = await storage().write(storageKey, Readable.from(render(opts.runId, opts.output.format)));
  const previous = await db.$transaction(async (tx) => {
    const old = await tx.outputFile.findMany({ where: { runId: opts.runId } });
    await tx.outputFile.deleteMany({ where: { runId: opts.runId } });
    await tx.outputFile.create({
      data: {
        id,
        runId: opts.runId,
        filename: opts.output.filename,
        contentType: CONTENT_TYPES[opts.output.format],
        sizeBytes: BigInt(size),
        storageKey,
      },
    });
    return old;
  });
  for (const old of previous) {
    await storage()
      .remove(old.storageKey)
      .catch((e) => log.warn({ err: (e as Error).message }, "old output file not removed"));
  }
}
