// Validation shared by every caller (routes, services, the CLI): zod -> invalid_request with the
// fields at fault, and the clamped `limit` schema of the list endpoints.
import { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";
import { FILE_ID_FORMAT, FILE_ID_RE, idFormat, idPattern, type IdPrefix } from "./ids";

export function fieldErrors(error: z.ZodError) {
  return error.issues.map((i) => ({ field: i.path.map(String).join(".") || "(root)", message: i.message }));
}

export function parseWith<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  code: ErrorCode = "invalid_request",
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields = fieldErrors(r.error);
  const first = fields[0]!;
  throw new ApiError(code, `Invalid ${where}: ${first.field}: ${first.message}`, { fields });
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
    .default(defaultValue);

/** A JSON object body whose fields are checked later (by the agent's kind or declared inputs). */
export const JsonObject = z.record(z.string(), z.unknown(), { error: "expected a JSON object" });

/** An `offset` query value: an integer >= 0, default 0. */
export const queryOffset = z
  .string()
  .regex(/^\d+$/, "must be an integer >= 0")
  .transform(Number)
  .pipe(z.number().int().min(0).max(2_147_483_647))
  .default(0);

/** A file id in a body: the message says what a well-formed one looks like. */
export const fileIdString = () => z.string().regex(FILE_ID_RE, `must be a file id: ${FILE_ID_FORMAT}`);

/** An id of `prefix` in a body (`noun`: "project", ...), with the same kind of message. */
export const idString = (prefix: IdPrefix, noun: string) =>
  z.string().regex(idPattern(prefix), `must be a${/^[aeiou]/.test(noun) ? "n" : ""} ${noun} id: ${idFormat(prefix)}`);
