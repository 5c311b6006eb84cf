// The OpenAPI answers of an operation, derived from its contract's `responses` (the schema or
// marker of each status) and its `openapi` prose (description, headers, examples): a response
// schema is written once, in the contract (ARCHITECTURE.md, Route contracts).
import type { z } from "zod";
import { jsonSchemaOf, markerOf, type Answer, type AnswerDoc } from "../http/contract";
import { inlineSchema, type Components, type Json } from "./builder";
import { SCHEMA_MODULES } from "./schema-modules";

const isSchema = (value: unknown): value is z.ZodType => typeof value === "object" && value !== null && "_zod" in value;

/**
 * The component name of each exported schema of the schema modules (./schema-modules.ts, generated):
 * its export's name (`SessionList`). A schema that no module exports is written inline.
 */
const NAMES = (() => {
  const names = new Map<z.ZodType, string>();
  for (const mod of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(mod)) if (isSchema(value) && !names.has(value)) names.set(value, name);
  }
  return names;
})();

/** A schema as the document refers to it: a component when it is named, `anyOf` of a union of named ones. */
export function schemaRef(c: Components, schema: z.ZodType): Json {
  const name = NAMES.get(schema);
  if (name) return c.ref(name, schema);
  const def = (schema as unknown as { _zod: { def: { type: string; options?: z.ZodType[] } } })._zod.def;
  if (def.type === "union" && def.options!.every((o) => NAMES.has(o))) {
    return { anyOf: def.options!.map((o) => schemaRef(c, o)) };
  }
  return inlineSchema(schema);
}

const streamContent = (doc: AnswerDoc): Json => ({
  "text/event-stream": {
    schema: { type: "string", ...(doc.stream ? { description: doc.stream } : {}) },
    ...(doc.example !== undefined ? { example: doc.example } : {}),
  },
});

/** The media types of one answer: its JSON schema (with the prose's examples), or what its marker says. */
function content(c: Components, answer: Answer, doc: AnswerDoc): Json | undefined {
  const json = jsonSchemaOf(answer);
  const marker = markerOf(answer);
  const jsonPart: Json = json
    ? { "application/json": { schema: schemaRef(c, json), ...(doc.examples ? { examples: doc.examples } : {}) } }
    : {};
  switch (marker?.body) {
    case undefined:
      return jsonPart;
    case "jsonOrEventStream":
      return { ...jsonPart, ...streamContent(doc) };
    case "eventStream":
      return streamContent(doc);
    case "file":
      // The file's own media type, whatever it is.
      return { "*/*": { schema: { type: "string", format: "binary" } } };
    case "text":
      return {
        [marker.mediaType ?? "text/plain"]: {
          schema: { type: "string" },
          ...(doc.example !== undefined ? { example: doc.example } : {}),
        },
      };
    case "none":
    case "redirect":
    case "external":
      return undefined;
  }
}

/** The operation's answers: each status of the contract's `responses`, with the prose of the same status. */
export function answerResponses(
  c: Components,
  where: string,
  responses: Readonly<Record<number, Answer>>,
  docs: Record<string, AnswerDoc>,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  const statuses = Object.keys(responses);
  const undocumented = Object.keys(docs).filter((s) => !statuses.includes(s));
  if (undocumented.length)
    throw new Error(`openapi: ${where}: prose for answers it has not: ${undocumented.join(", ")}`);
  for (const status of statuses) {
    const doc = docs[status];
    if (!doc) throw new Error(`openapi: ${where}: answer ${status} has no description`);
    const body = content(c, responses[Number(status)]!, doc);
    out[status] = { description: doc.description, headers: doc.headers ?? {}, ...(body ? { content: body } : {}) };
  }
  return out;
}
