// Size-limited request bodies: the limit is enforced while streaming, so an oversized body is
// refused without reading past it.
import { ApiError, ClientAbortError } from "../errors";
import { readNodeStreamCapped, readStreamCapped, takeRawBody } from "../streams";
import { assertStorable } from "../validate";
import { JSON_BODY_LIMIT } from "./body-limit";

export async function readBodyLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  // Node's own stream when the server handed it over (a hot route's POST: lib/server/fast-routes.ts).
  const raw = takeRawBody(req.headers);
  if (raw)
    return readNodeStreamCapped(
      raw,
      limit,
      () => tooLarge(limit),
      () => new ClientAbortError(),
    );
  return readStreamCapped(req.body, limit, () => tooLarge(limit));
}

function tooLarge(limit: number) {
  return new ApiError("payload_too_large", `Request body exceeds ${limit} bytes.`, { limit_bytes: limit });
}

export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads a JSON body (any JSON value) within the limit. A value the database cannot hold (NUL, an
 * unpaired surrogate) or nested past MAX_JSON_DEPTH is refused here, with the field named.
 */
export async function readJson(req: Request, limit = JSON_BODY_LIMIT, optional = false): Promise<unknown> {
  const json = isJsonContentType(req.headers.get("content-type"));
  if (!json && !optional) throw new ApiError("unsupported_media_type", "Content-Type must be application/json.");
  const bytes = await readBodyLimited(req, limit);
  const text = new TextDecoder().decode(bytes);
  // An optional body may be left out (whatever the Content-Type): read as {}.
  if (optional && !text.trim()) return {};
  if (!json) throw new ApiError("unsupported_media_type", "Content-Type must be application/json.");
  if (!text.trim()) throw new ApiError("invalid_json", "Request body is empty; a JSON object is expected.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ApiError("invalid_json", `Request body is not valid JSON: ${(e as Error).message}`);
  }
  assertStorable(value, "body");
  return value;
}
