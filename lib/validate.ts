// Validation shared by every caller (routes, services, the CLI): zod -> invalid_request with the
// fields at fault, and the clamped `limit` schema of the list endpoints. The words of the messages
// are lib/validation-messages.ts's (shared with the console).
import { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";
import { EXAMPLE_ID, FILE_ID_FORMAT, FILE_ID_RE, idFormat, idPattern, type IdPrefix } from "./id-format";
import { fieldErrors, fieldSentence, validationMessage } from "./validation-messages";

export function parseWith<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  code: ErrorCode = "invalid_request",
): T {
  const r = schema.safeParse(value, { error: validationMessage });
  if (r.success) return r.data;
  const fields = fieldErrors(r.error);
  // A field may name its own code (a custom issue's `params.error_code`, e.g. invalid_callback_url).
  const own = r.error.issues.find((i) => i.code === "custom" && typeof i.params?.error_code === "string") as
    { params?: Record<string, unknown> } | undefined;
  const firstIndex = own ? r.error.issues.indexOf(own as z.core.$ZodIssue) : 0;
  const first = fields[firstIndex]!;
  const chosen = own ? (own.params!.error_code as ErrorCode) : code;
  throw new ApiError(chosen, `Invalid ${where}: ${fieldSentence(first.field, first.message)}`, { fields });
}

/** A `limit` query value: a positive integer, `defaultValue` when absent, clamped to `cap` (and
 *  echoed clamped by the lists that return it). */
export const queryLimit = (defaultValue: number, cap: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1"))
    .transform((n) => Math.min(n, cap))
    .default(defaultValue)
    .meta({ description: `Maximum rows to return (default ${defaultValue}, capped at ${cap}).` });

/** A JSON object body whose fields are checked later (by the agent's kind or declared inputs). */
export const JsonObject = z.record(z.string(), z.unknown(), { error: "must be a JSON object" });

/** An `offset` query value: an integer >= 0, default 0. */
export const queryOffset = z
  .string()
  .regex(/^\d+$/, "must be an integer >= 0")
  .transform(Number)
  .pipe(z.number().int().min(0).max(2_147_483_647))
  .default(0);

/** A list's opaque cursor: the `next_cursor` of its previous page (lib/pagination.ts reads it). */
export const queryCursor = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .meta({
    description:
      "The `next_cursor` of the previous page, with the same filters: the page continues after its last row " +
      "(docs/api.md, Paging). Opaque; a forged one is `400 invalid_request` naming `cursor`.",
  });

/** One line: no control character (C0, DEL, C1) anywhere, written so that JSON Schema tools in
 *  other languages read it too (`\p{Cc}` is not in Python's `re`). */
// eslint-disable-next-line no-control-regex
export const ONE_LINE = /^[^\x00-\x1F\x7F-\x9F]*$/;

// Instants both databases store and JavaScript writes with a 4-digit year: a year 0 or 10000 in a
// filter answered 500 from the database, and an export's job failed on it (docs/api.md, Errors).
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");
export const STORABLE_INSTANT_RULE = "must be between 0001-01-01 and 9999-12-31";
export const isStorableInstant = (ms: number) => ms >= EARLIEST && ms <= LATEST;

/** An RFC 3339 date-time input (with an offset or Z) that the databases can store. */
export const inputInstant = (error: string) =>
  z.iso.datetime({ offset: true, error }).refine((s) => isStorableInstant(Date.parse(s)), STORABLE_INSTANT_RULE);

/** The date of a list filter: RFC 3339 (an offset or Z; none reads as UTC) or yyyy-mm-dd (UTC). */
const filterDate = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()], {
    error: "must be an RFC 3339 timestamp or a date (yyyy-mm-dd)",
  })
  .transform((s) => ({
    at: new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) || !s.includes("T") ? s : `${s}Z`),
    day: !s.includes("T"),
  }))
  .refine((d) => !Number.isNaN(d.at.getTime()), "must be an RFC 3339 timestamp or a date (yyyy-mm-dd)")
  // A date as `to` reads through its end: the day after must be storable too.
  .refine((d) => isStorableInstant(d.at.getTime() + (d.day ? 86_400_000 : 0)), STORABLE_INSTANT_RULE)
  .refine((d) => isStorableInstant(d.at.getTime()), STORABLE_INSTANT_RULE);

/** `from`: records at or after this instant (a date: from its start, UTC). */
export const queryFrom = filterDate.transform((d) => d.at);
/** `to`: records before this instant (a date: through its end, UTC). */
export const queryTo = filterDate.transform((d) => (d.day ? new Date(d.at.getTime() + 86_400_000) : d.at));
/** A yes/no filter (`has_error=true`). */
export const queryBoolean = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((v) => v === "true");
/**
 * The filters every console list shares (docs/console.md, "List filters"); each list adds its own,
 * and says in its own words what `from` and `to` bound.
 */
export const listFilterFields = (words: { from: string; to: string }) => ({
  from: queryFrom.optional().meta({ description: words.from }),
  to: queryTo.optional().meta({ description: words.to }),
});
/** An agent version filter (with `agent_id`): a version number. */
export const queryVersion = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, "must be a version number (an integer from 1)")
  .transform(Number);
/** An agent version names a version of one agent: the filter needs `agent_id` beside it. */
export function assertVersionFilter(filter: { agent_id?: string; agent_version?: number }) {
  if (filter.agent_version !== undefined && !filter.agent_id) {
    throw new ApiError("invalid_request", "Invalid query: agent_version needs agent_id (a version of which agent)", {
      fields: [{ field: "agent_version", message: "needs agent_id (a version of which agent)" }],
    });
  }
}

/** An end-user id filter (sessions' user, a run's `user_id` input). */
export const queryUserId = z.string().min(1).max(256);

// The ids of a path (`[org_id]`, `[agent_id]`), as every route that holds them describes them: opaque
// text, so that a malformed one is simply not found (404), never a 400.

/** An organization API route's path: `/api/v1/organizations/{org_id}/...`. */
export const OrgParams = z.object({
  org_id: z.string().meta({
    description: "The organization (`org_...`); the token's user must be a member.",
    example: EXAMPLE_ID.org,
  }),
});

/** A public route's path: `/api/agents/{agent_id}/...`. */
export const AgentParams = z.object({
  agent_id: z.string().meta({ description: "The agent (`agt_...`).", example: EXAMPLE_ID.agent }),
});
/** An organization API route of one agent: `/api/v1/organizations/{org_id}/agents/{agent_id}/...`. */
export const OrgAgentParams = OrgParams.extend(AgentParams.shape);

/** The management API's lists (agents, Access Keys, secrets): a page of `limit` rows after `cursor`. */
export const ManagementLimits = { default: 100, cap: 500 } as const;
export const managementPageQuery = () => ({
  limit: queryLimit(ManagementLimits.default, ManagementLimits.cap),
  cursor: queryCursor,
});

/** A list's `next_cursor` in a response: null on its last page. */
export const responseNextCursor = () =>
  z.string().nullable().meta({
    description: "Pass as `cursor` (with the same filters) for the next page; null when this page is the last. Opaque.",
  });

/**
 * A list's paging fields in a response (docs/api.md, Paging): every list of the organization API
 * answers both, after its rows.
 */
export const responsePageFields = () => ({
  has_more: z
    .boolean()
    .meta({ description: "Whether a page follows this one: false exactly when `next_cursor` is null." }),
  next_cursor: responseNextCursor(),
});

/** A file id in a body: the message says what a well-formed one looks like. */
export const fileIdString = () => z.string().regex(FILE_ID_RE, `must be a file id: ${FILE_ID_FORMAT}`);

/** An id of `prefix` in a body (`noun`: "project", ...), with the same kind of message. */
export const idString = (prefix: IdPrefix, noun: string) =>
  z.string().regex(idPattern(prefix), `must be a${/^[aeiou]/.test(noun) ? "n" : ""} ${noun} id: ${idFormat(prefix)}`);

/** An id in a response: documented by its prefix (`sess` -> `sess_...`); the rest is opaque. */
export const responseId = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`), `must be an id: ${prefix}_...`);

/** A timestamp in a response: ISO 8601 in UTC, as Date#toISOString writes it. */
export const responseTimestamp = () => z.iso.datetime();

/** JSON bodies nest at most this deep: recursive walks (file references) and jsonb have limits. */
export const MAX_JSON_DEPTH = 100;

// An unpaired UTF-16 surrogate: no UTF-8 encodes it, so PostgreSQL text and jsonb refuse it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(s: string): string | undefined {
  if (s.includes("\u0000")) return "must not contain the NUL character (\\u0000)";
  if (LONE_SURROGATE.test(s)) return "must not contain an unpaired UTF-16 surrogate (\\ud800-\\udfff)";
  return undefined;
}

/**
 * The first part of a request value that cannot be stored: a string or key with NUL (PostgreSQL
 * text and jsonb cannot hold U+0000) or an unpaired surrogate, or nesting deeper than `maxDepth`.
 * Iterative, so a hostile depth cannot overflow the stack here. `prefix` names the root's field.
 */
export function unstorable(
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  prefix = "",
): { field: string; message: string } | undefined {
  const stack: [unknown, string, number][] = [[value, prefix, 0]];
  const join = (parent: string, key: string | number) => (parent ? `${parent}.${key}` : String(key));
  while (stack.length) {
    const [v, field, depth] = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) return { field: field || "(root)", message: problem };
    } else if (typeof v === "object" && v !== null) {
      if (depth >= maxDepth) return { field: field || "(root)", message: `is nested deeper than ${maxDepth} levels` };
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(field, i), depth + 1]);
      } else {
        for (const [k, x] of Object.entries(v)) {
          const problem = textProblem(k);
          if (problem) return { field: join(field, k), message: `name ${problem}` };
          stack.push([x, join(field, k), depth + 1]);
        }
      }
    }
  }
  return undefined;
}

/** Refuses a request value `unstorable` finds fault with: 400 invalid_request naming the field. */
export function assertStorable(value: unknown, where: string, maxDepth = MAX_JSON_DEPTH) {
  const problem = unstorable(value, maxDepth);
  if (problem) {
    throw new ApiError("invalid_request", `Invalid ${where}: ${problem.field}: ${problem.message}`, {
      fields: [problem],
    });
  }
}
