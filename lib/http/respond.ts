// Response helpers and the error envelope.
import { isDatabaseUnavailable } from "../db/unavailable";
import { ApiError, errorDocUrl, isApiError } from "../errors";
import { log } from "../log";

/** A handler's result with a status other than 200, or extra headers. */
export class HttpAnswer {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers?: HeadersInit,
  ) {}
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  h.set("cache-control", "no-store");
  const text = JSON.stringify(body, jsonReplacer);
  const res = new Response(text, { status, headers: h });
  // server.ts's hot routes write this text as is instead of reading the body back (lib/server/fast-routes.ts).
  (res as unknown as Record<symbol, string>)[RESPONSE_TEXT] = text;
  return res;
}

/** lib/server/fast-routes.ts's RESPONSE_TEXT (a registered symbol: the same in every bundle). */
const RESPONSE_TEXT = Symbol.for("awhs.responseText");

/** BigInt columns (file sizes) serialise as numbers. */
function jsonReplacer(_key: string, value: unknown) {
  return typeof value === "bigint" ? Number(value) : value;
}

export function errorBody(err: ApiError, requestId: string) {
  return {
    error: {
      code: err.code,
      message: err.message,
      request_id: requestId,
      doc_url: errorDocUrl(err.code),
      ...(err.details ? { details: err.details } : {}),
    },
  };
}

/** What a caller is told of `err`: an ApiError as is; anything else is logged and summarised. */
export function apiErrorOf(err: unknown, requestId: string): ApiError {
  if (isApiError(err)) return err;
  if (isDatabaseUnavailable(err)) {
    // Down or restarting: not a fault of the service's code, and one a client should retry after a pause.
    log.warn({ request_id: requestId, err: { message: (err as Error).message } }, "database unavailable");
    return new ApiError("service_unavailable", "The database is not available; retry shortly.", {
      retry_after_seconds: 2,
    });
  }
  log.error({ request_id: requestId, err: serializeError(err) }, "unhandled error");
  return new ApiError("internal_error", "Internal error.");
}

export function errorResponse(err: unknown, requestId: string, headers?: HeadersInit): Response {
  const apiErr = apiErrorOf(err, requestId);
  const h = new Headers(headers);
  h.set("x-request-id", requestId);
  // 429 rate_limited and 503 service_unavailable say when to come back.
  if (apiErr.details?.retry_after_seconds) h.set("retry-after", String(apiErr.details.retry_after_seconds));
  return json(errorBody(apiErr, requestId), apiErr.status, h);
}

function serializeError(err: unknown) {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
