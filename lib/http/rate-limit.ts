// The public API's per-key rate limit, as HTTP: RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset (IETF httpapi-ratelimit-headers draft: reset in seconds) on every answer to a
// verified key, and 429 rate_limited with Retry-After once the key's window is used up.
import type { KeyPrincipal } from "../auth/access-keys";
import { ApiError } from "../errors";
import { consumeKeyRate, type RateDecision } from "../keys/rate-limit";
import { countRateLimited } from "../metrics";

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(d.limit),
    "ratelimit-remaining": String(d.remaining),
    "ratelimit-reset": String(d.resetSeconds),
  };
}

export function rateLimitedError(d: RateDecision): ApiError {
  return new ApiError(
    "rate_limited",
    `This Access Key made more than its ${d.limit} requests a minute; retry after ${d.resetSeconds} s.`,
    // errorResponse turns retry_after_seconds into Retry-After.
    { limit_per_minute: d.limit, retry_after_seconds: d.resetSeconds },
  );
}

/**
 * Counts one request of a verified key: sets the RateLimit-* headers of the answer (whatever it
 * turns out to be) in `headers`, and throws 429 rate_limited when the key is over its limit.
 */
export async function limitAccessKey(key: KeyPrincipal, headers: Headers): Promise<void> {
  const decision = await consumeKeyRate(key);
  if (!decision) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) headers.set(name, value);
  if (!decision.allowed) {
    countRateLimited("access_key");
    throw rateLimitedError(decision);
  }
}
