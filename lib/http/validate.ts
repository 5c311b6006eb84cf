// zod -> invalid_request with the fields at fault.
import type { z } from "zod";
import { ApiError, type ErrorCode } from "../errors";

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
