// Idempotency-Key on a route (the wrapper's `idempotency` option): a repeat of the same request
// gets the stored answer again with `Idempotent-Replayed: true` and creates nothing. Only answers
// of requests that changed something are kept (2xx, and the 502s of a synchronous trigger whose
// message was stored); any other failure releases the key so that a corrected request may use it.
import { ApiError, isApiError } from "../errors";
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  storeIdempotentResult,
  type StoredResponse,
} from "../idempotency";
import { errorResponse, HttpAnswer } from "./respond";
import { EventStreamAnswer } from "./sse";

export const IDEMPOTENCY_KEY_MAX = 255;
const REPLAYED = { "idempotent-replayed": "true" };
/** Response headers worth replaying (the rest are per response). */
const KEPT_HEADERS = ["preference-applied", "location"];

function keptHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const h = new Headers(headers);
  return Object.fromEntries(KEPT_HEADERS.flatMap((name) => (h.has(name) ? [[name, h.get(name)!]] : [])));
}

/** Errors raised after the request's effects were committed: replayed like successes. */
const isCommittedError = (e: unknown): e is ApiError =>
  isApiError(e) && (e.code === "upstream_timeout" || e.code === "upstream_error");

/**
 * Runs `run` at most once per Idempotency-Key (when the request carries one). `scope` and the raw
 * body make the request hash: the same key with another body or on another route is a conflict.
 */
export async function idempotent(
  opts: { req: Request; organizationId: string; scope: string; body: unknown; requestId: string },
  run: () => Promise<HttpAnswer>,
): Promise<HttpAnswer | Response> {
  const key = opts.req.headers.get("idempotency-key");
  if (key === null) return run();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    const message = `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`;
    throw new ApiError("invalid_request", `Invalid header: Idempotency-Key: ${message}`, {
      fields: [{ field: "Idempotency-Key", message }],
    });
  }
  const claimed = await claimIdempotencyKey({
    organizationId: opts.organizationId,
    key,
    hash: requestHash(opts.req.method, opts.scope, opts.body),
  });
  if (claimed.kind === "replay") {
    const { response } = claimed;
    if (response.error) {
      const { code, message, details } = response.error;
      return errorResponse(new ApiError(code, message, details), opts.requestId, REPLAYED);
    }
    return new HttpAnswer(response.body, claimed.status, { ...response.headers, ...REPLAYED });
  }
  let reply: HttpAnswer;
  try {
    reply = await run();
  } catch (e) {
    await keepFailure(claimed.id, e);
    throw e;
  }
  if (reply instanceof EventStreamAnswer) {
    // A streamed answer (lib/http/sse.ts) is kept as its non-streamed equivalent once that is known,
    // whether or not the client is still there; until then a repeat is in flight (409).
    const id = claimed.id;
    if (!reply.outcome) await releaseIdempotencyKey(id);
    else
      reply.kept = reply.outcome
        .then((final) => (final instanceof HttpAnswer ? keepReply(id, final) : keepFailure(id, final)))
        .catch((e: unknown) => keepFailure(id, e))
        .catch(() => {});
    return reply;
  }
  await keepReply(claimed.id, reply);
  return reply;
}

const keepReply = (id: string, reply: HttpAnswer) =>
  storeIdempotentResult(id, reply.status, { body: reply.body, headers: keptHeaders(reply.headers) });

/** A committed error is kept like a success; any other failure releases the key. */
async function keepFailure(id: string, e: unknown) {
  if (isCommittedError(e)) {
    const stored: StoredResponse = {
      body: null,
      headers: {},
      error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
    };
    await storeIdempotentResult(id, e.status, stored);
  } else {
    await releaseIdempotencyKey(id).catch(() => {});
  }
}
