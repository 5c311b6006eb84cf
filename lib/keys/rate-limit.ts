// Per-Access-Key rate limits of the public API: a fixed window of one minute per key, counted with
// rate-limiter-flexible. On PostgreSQL the counters live in the UNLOGGED `rate_limits` table and are
// shared by every process (one upsert per request; none once this process has seen the key use up
// its window: the key is then refused from memory until the window ends). On the embedded database
// (one process) they live in memory. The limit of a key is its own `rate_limit_per_minute`, else
// RATE_LIMIT_PER_MINUTE; 0 means none.
import type pg from "pg";
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from "rate-limiter-flexible";
import { database, type Database } from "../db";
import { env } from "../env";
import { processSlot } from "../process-state";

export const WINDOW_SECONDS = 60;
/** Table of the PostgreSQL counters (prisma/schema.prisma, model RateLimit). */
const TABLE = "rate_limits";

export interface RateDecision {
  /** Requests a key may make in one window. */
  limit: number;
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the current window ends and the count starts again (1 to WINDOW_SECONDS). */
  resetSeconds: number;
  allowed: boolean;
}

/** The limit that applies to a key: its own, else the service default; 0 means no limit. */
export function effectiveLimit(own: number | null, fallback: number = env().RATE_LIMIT_PER_MINUTE): number {
  return own ?? fallback;
}

/** A limiter's answer as a decision: whole seconds, rounded up, within the window. */
export function toDecision(
  limit: number,
  res: Pick<RateLimiterRes, "remainingPoints" | "msBeforeNext">,
  allowed: boolean,
): RateDecision {
  const ms = res.msBeforeNext >= 0 ? res.msBeforeNext : WINDOW_SECONDS * 1000;
  return {
    limit,
    remaining: allowed ? Math.max(0, Math.min(limit, res.remainingPoints)) : 0,
    resetSeconds: Math.min(WINDOW_SECONDS, Math.max(1, Math.ceil(ms / 1000))),
    allowed,
  };
}

export type RateStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

/**
 * Counts requests per key id. rate-limiter-flexible fixes the number of points per limiter, so
 * there is one limiter per distinct limit value (few: the default and the values admins chose);
 * they share one store, since the key id alone names the counter.
 */
export class KeyRateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract | RateLimiterStoreAbstract>();

  constructor(readonly store: RateStore) {}

  private limiter(points: number) {
    let limiter = this.limiters.get(points);
    if (limiter) return limiter;
    const base = { keyPrefix: "ak", points, duration: WINDOW_SECONDS };
    limiter =
      this.store.kind === "memory"
        ? new RateLimiterMemory(base)
        : new RateLimiterPostgres({
            ...base,
            storeClient: this.store.pool,
            storeType: "pool",
            tableName: TABLE,
            tableCreated: true, // by the migration: no DDL at run time
            // Rows of windows that ended an hour ago are deleted every 5 minutes; one limiter of
            // the process doing it is enough (they share the table).
            clearExpiredByTimeout: this.limiters.size === 0,
            // Once a key has used its window (as this process sees it), refuse it from memory
            // until the window ends: a key hammering past its limit costs no database round trip.
            inMemoryBlockOnConsumed: points,
            // If the database fails, count in this process's memory rather than failing requests.
            insuranceLimiter: new RateLimiterMemory(base),
          });
    this.limiters.set(points, limiter);
    return limiter;
  }

  /** Counts one request of `keyId` against `limit`; null when the limit is 0 (none). */
  async consume(keyId: string, limit: number): Promise<RateDecision | null> {
    if (limit <= 0) return null;
    try {
      return toDecision(limit, await this.limiter(limit).consume(keyId), true);
    } catch (err) {
      if (err instanceof RateLimiterRes) return toDecision(limit, err, false);
      throw err;
    }
  }
}

const current = processSlot<{ db: Database; limiter: KeyRateLimiter }>("keyRate");

/** The process's limiter for its database (kept on globalThis: Next's bundles share it). */
async function processLimiter(): Promise<KeyRateLimiter> {
  const db = await database();
  let rate = current.get();
  if (rate?.db !== db) {
    const store: RateStore =
      db.kind === "postgres" && db.pool ? { kind: "postgres", pool: db.pool } : { kind: "memory" };
    current.set((rate = { db, limiter: new KeyRateLimiter(store) }));
  }
  return rate.limiter;
}

/**
 * Counts one public API request of a key: its own limit, else RATE_LIMIT_PER_MINUTE. Null when no
 * limit applies.
 */
export async function consumeKeyRate(key: { keyId: string; rateLimitPerMinute: number | null }) {
  const limit = effectiveLimit(key.rateLimitPerMinute);
  if (limit <= 0) return null;
  return (await processLimiter()).consume(key.keyId, limit);
}

/**
 * Counts one event of something other than an Access Key against `limit` a minute, in the same
 * store (shared by every process on PostgreSQL). `name` must not look like a key id: e.g.
 * `invitation-miss:<client address>`.
 */
export async function consumeRate(name: string, limit: number) {
  return (await processLimiter()).consume(name, limit);
}

/** The limit of keys minted without their own (RATE_LIMIT_PER_MINUTE); 0: none. */
export function defaultRateLimitPerMinute(): number {
  return env().RATE_LIMIT_PER_MINUTE;
}
