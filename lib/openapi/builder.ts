// The pieces the OpenAPI document is assembled from: zod schemas become JSON Schema (draft
// 2020-12, OpenAPI 3.1's dialect) through zod's own z.toJSONSchema, named components through one
// registry, and every operation's error answers through the one taxonomy of lib/errors.ts.
import { z } from "zod";
import { ERROR_STATUS, errorDocUrl, type ErrorCode } from "../errors";

export type Json = Record<string, unknown>;

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The key the conversion marks a trimmed string with, for `trimmed` to rewrite once it is done. */
const TRIMMED = "x-trimmed";

/**
 * Whether a string schema trims its value before its length checks (`z.string().trim().max(n)`),
 * and whether a pattern is checked after the trim too.
 */
function trimOf(schema: z.core.$ZodType): { patternAfter: boolean } | undefined {
  const checks = ((schema._zod.def as { checks?: z.core.$ZodCheck[] }).checks ?? []).map(
    (c) => c._zod.def as { check: string; format?: string; tx?: (v: string) => string },
  );
  const trim = checks.findIndex((c) => c.check === "overwrite" && c.tx?.(" a ") === "a");
  if (trim < 0) return undefined;
  const length = checks.findIndex((c) => ["min_length", "max_length", "length_equals"].includes(c.check));
  if (length >= 0 && length < trim) return undefined;
  return { patternAfter: checks.slice(trim).some((c) => c.check === "string_format" && c.format === "regex") };
}

/**
 * A trimmed string's checks as checks of what is sent. Its lengths become a pattern (`minLength`
 * and `maxLength` would count the spaces the server trims): `\s*`, the trimmed text (from a
 * non-space to a non-space), `\s*`. A pattern checked after the trim that is one character class
 * (`^[...]*$`) allows spaces around it; the lengths' pattern goes beside it in `allOf`.
 */
function rewriteTrimmed(s: Json) {
  const mark = s[TRIMMED] as { patternAfter: boolean };
  delete s[TRIMMED];
  if (mark.patternAfter && typeof s.pattern === "string") {
    const cls = /^\^(\[(?:[^\]\\]|\\.)+\])\*\$$/.exec(s.pattern);
    if (cls) s.pattern = `^\\s*${cls[1]}*\\s*$`;
  }
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : undefined;
  if (min === 0 && max === undefined) return;
  delete s.minLength;
  delete s.maxLength;
  const upTo = max === undefined ? "" : String(max - 2);
  const text = min >= 2 ? `\\S[\\s\\S]{${min - 2},${upTo}}\\S` : max === 1 ? "\\S" : `\\S(?:[\\s\\S]{0,${upTo}}\\S)?`;
  const lengths = `^\\s*(?:${text})${min === 0 ? "?" : ""}\\s*$`;
  if (typeof s.pattern === "string") s.allOf = [...((s.allOf as Json[] | undefined) ?? []), { pattern: s.pattern }];
  s.pattern = lengths;
}

/** `value` (converted JSON Schema) with every marked trimmed string rewritten (rewriteTrimmed). */
function trimmed<T>(value: T): T {
  if (Array.isArray(value)) value.forEach(trimmed);
  else if (value && typeof value === "object") {
    const s = value as Json;
    Object.values(s).forEach(trimmed);
    if (s[TRIMMED]) rewriteTrimmed(s);
  }
  return value;
}

/** JSON Schema of what a request may send (`input`): defaults optional, transforms not yet run. */
const CONVERT = {
  target: "draft-2020-12",
  io: "input",
  unrepresentable: "any",
  override: (ctx: { zodSchema: z.core.$ZodType; jsonSchema: Json }) => {
    const s = ctx.jsonSchema;
    // The date-time regex zod writes out is the same check as `format`, only unreadable.
    if ((s.format === "date-time" || s.format === "date") && typeof s.pattern === "string") delete s.pattern;
    const trim = s.type === "string" ? trimOf(ctx.zodSchema) : undefined;
    if (trim) s[TRIMMED] = trim;
  },
} as const;

/** Named schemas (`#/components/schemas/<name>`): a registered schema nested in another becomes a $ref. */
export class Components {
  private readonly registry = z.registry<{ id: string; description?: string }>();
  private readonly names = new Map<z.ZodType, string>();

  /** A reference to `schema` under `name`, registering it the first time. */
  ref(name: string, schema: z.ZodType, description?: string): Json {
    const known = this.names.get(schema);
    if (known && known !== name) throw new Error(`openapi: one schema under two names: ${known}, ${name}`);
    if (!known) {
      if ([...this.names.values()].includes(name)) throw new Error(`openapi: two schemas named ${name}`);
      this.names.set(schema, name);
      this.registry.add(schema, { id: name, ...(description ? { description } : {}) });
    }
    return schemaRef(name);
  }

  /** Every registered schema as JSON Schema, nested registered schemas as $refs. */
  schemas(): Record<string, Json> {
    const out = trimmed(
      z.toJSONSchema(this.registry, {
        ...CONVERT,
        uri: (id: string) => `#/components/schemas/${id}`,
      }) as { schemas: Record<string, Json> },
    );
    const sorted: Record<string, Json> = {};
    for (const name of Object.keys(out.schemas).sort()) {
      const { $schema: _s, $id: _i, ...schema } = out.schemas[name]!;
      sorted[name] = schema;
    }
    return sorted;
  }
}

/** A schema written inline (not a component). */
export function inlineSchema(schema: z.ZodType): Json {
  const { $schema: _s, ...rest } = trimmed(z.toJSONSchema(schema, CONVERT) as Json);
  return rest;
}

/** A parameter of a field's JSON Schema: its `.meta({ description, example })` go on the parameter. */
function parameterOf(name: string, where: "query" | "path", required: boolean, prop: Json, schema?: Json): Json {
  const { description, example, ...own } = prop;
  if (typeof description !== "string" || !description)
    throw new Error(`openapi: ${where} parameter ${name} has no description`);
  return {
    name,
    in: where,
    required,
    description,
    schema: schema ?? own,
    ...(example !== undefined ? { example } : {}),
  };
}

/**
 * The query parameters of a route, from the zod schema the route validates its query with. A
 * value that must be a string of digits (`limit`, `offset`) is an integer to a client. Each one's
 * description (and example) is its field's own `.meta()`.
 */
export function queryParameters(schema: z.ZodObject): Json[] {
  const js = inlineSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, prop]) => {
    let integer: Json | undefined;
    if (prop.type === "string" && prop.pattern === "^\\d+$") {
      const fallback = (schema.shape[name] as z.ZodType).safeParse(undefined);
      const dflt = fallback.success && typeof fallback.data === "number" ? fallback.data : undefined;
      integer = { type: "integer", minimum: 0, ...(dflt !== undefined ? { default: dflt } : {}) };
    }
    return parameterOf(name, "query", (js.required ?? []).includes(name), prop, integer);
  });
}

/**
 * The path parameters of an operation (`{name}` in its OpenAPI `path`), in the path's order, from
 * the zod schema of its path (the contract's `params`): each field's description and example are
 * its `.meta({ description, example })`, its schema what the field checks.
 */
export function pathParameters(path: string, schema: z.ZodType | undefined): Json[] {
  const names = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
  if (!names.length && !schema) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`openapi: ${path}: its path parameters need a z.object`);
  const js = inlineSchema(schema) as { properties?: Record<string, Json> };
  const fields = Object.keys(js.properties ?? {});
  if ([...fields].sort().join() !== [...names].sort().join())
    throw new Error(
      `openapi: ${path}: the path's parameters are ${names.join(", ")}; its schema's ${fields.join(", ")}`,
    );
  return names.map((name) => {
    const parameter = parameterOf(name, "path", true, js.properties![name]!);
    if (parameter.example === undefined) throw new Error(`openapi: ${path}: path parameter ${name} has no example`);
    return parameter;
  });
}

export const jsonContent = (schema: Json, examples?: Record<string, { summary: string; value: unknown }>) => ({
  "application/json": { schema, ...(examples ? { examples } : {}) },
});

export const header = (description: string, schema: Json = { type: "string" }, required = false): Json => ({
  description,
  required,
  schema,
});

/** What the `when` of each error code is: the document's table of codes (docs/api.md has the same). */
export type ErrorDocs = Record<ErrorCode, string>;

/** The statuses of `codes`, each with the codes that answer it, in order. */
export function errorGroups(codes: readonly ErrorCode[]): [number, ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * The error answer of one status that carries `codes`: the envelope with `code` narrowed to them,
 * an example of each (components.examples), and the headers that go with the status.
 */
export function errorResponse(status: number, codes: readonly ErrorCode[], messages: ErrorDocs): Json {
  const headers: Json = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
  if (status === 429) Object.assign(headers, rateLimitHeaders());
  if (status === 429 || status === 503) headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
  return {
    description: codes.map((c) => `\`${c}\`: ${messages[c]}`).join("\n\n"),
    headers,
    content: jsonContent(
      {
        allOf: [
          schemaRef("ErrorEnvelope"),
          { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } },
        ],
      },
      Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])) as never,
    ),
  };
}

/** components.examples: one error answer per code. */
export function errorExamples(codes: readonly ErrorCode[]): Record<string, Json> {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        summary: code,
        value: {
          error: { code, message: exampleMessage(code), request_id: EXAMPLE_REQUEST_ID, doc_url: errorDocUrl(code) },
        },
      },
    ]),
  );
}

export const EXAMPLE_REQUEST_ID = "req_0VdXgkF2Zq8mR3tLw9YbNc";

/** An error message as the service words it, for examples (the `when` text is the fallback). */
const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  unauthorized: "Missing or invalid Access Key.",
  forbidden: "This Access Key lacks the agents:invoke permission.",
  agent_not_found: "Agent not found.",
  session_not_found: "Session not found.",
  message_not_found: "Message not found.",
  run_not_found: "Run not found.",
  invalid_json: "Request body is not valid JSON: Unexpected end of JSON input",
  invalid_request: "Invalid body: message must be a non-empty string",
  invalid_status: "status must be one of pending, running, completed, failed, needs_review, cancelled, paused.",
  invalid_state_transition: "Cannot pause a run that is completed.",
  rate_limited: "This Access Key made more than its 600 requests a minute; retry after 37 s.",
  upstream_timeout: "The agent did not reply in time; poll the message for its reply.",
  upstream_error: "The agent runtime failed to produce a reply.",
  unsupported_media_type: "Content-Type must be application/json.",
  payload_too_large: "Request body exceeds 1048576 bytes.",
  runtime_not_applicable: "Run routes apply to workflow agents only; this agent is conversational.",
  missing_file: "The form has no part named file.",
  empty_file: "The file is empty.",
  upload_failed: "The upload failed; nothing was kept.",
  service_unavailable: "The service is at capacity; retry shortly.",
};

function exampleMessage(code: ErrorCode): string {
  return EXAMPLE_MESSAGES[code] ?? `${code.replace(/_/g, " ")}.`.replace(/^./, (c) => c.toUpperCase());
}

export const rateLimitHeaders = (): Json => ({
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
});

export type Method = "get" | "head" | "options" | "post" | "put" | "patch" | "delete";

/** How an operation authenticates: an Access Key (public API), a user token (management API), none. */
export type Auth = "accessKey" | "member" | "none";

/** One operation as the path files describe it; document.ts adds security and the error answers. */
export interface Operation {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  parameters?: Json[];
  requestBody?: Json;
  /** The answers other than the error envelope (successes, tus's plain-text protocol errors). */
  responses: Record<string, Json>;
  /** The error codes the operation can answer, in the envelope (grouped by their status). */
  errors: ErrorCode[];
}
