// Per-Access-Key rate limits of the public API: a fixed window of one minute per key. On PostgreSQL
// the counters live in the UNLOGGED `rate_limits` table and are shared by every process: a process
// counts the requests that arrive while its previous count is on its way all in one upsert
// (`PostgresCounter`, docs/decisions.md 67), and refuses a key from memory once it has seen the key
// use up its window, until the window ends. On the embedded database (one process) they live in
// memory (rate-limiter-flexible). The limit of a key is its own `rate_limit_per_minute`, else
// RATE_LIMIT_PER_MINUTE; 0 means none.
import type pg from "pg";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { database, type Database } from "../db";
import { InFlightBatcher } from "../db/batch";
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

/** A key's count in its window after a request: how many it has made, and when the window ends. */
export interface WindowCount {
  consumed: number;
  msBeforeNext: number;
}

/**
 * One upsert for a batch of counters (sorted keys, so that two processes lock rows in the same
 * order): a window that has ended starts again at the batch's count, else the count grows by it.
 * The layout and the window rule are rate-limiter-flexible's RateLimiterPostgres, whose table this
 * is (prisma/schema.prisma, RateLimit).
 */
const COUNT_SQL = `
INSERT INTO ${TABLE} (key, points, expire)
SELECT b.key, b.n, $3 FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS b(key, n, i) ORDER BY b.i
ON CONFLICT (key) DO UPDATE SET
  points = CASE WHEN ${TABLE}.expire <= $4 THEN EXCLUDED.points ELSE ${TABLE}.points + EXCLUDED.points END,
  expire = CASE WHEN ${TABLE}.expire <= $4 THEN EXCLUDED.expire ELSE ${TABLE}.expire END
RETURNING key, points, expire`;

/**
 * The shared counters on PostgreSQL, counted in batches (lib/db/batch.ts): the requests that arrive
 * while a count is on its way are counted together by the next statement. Each gets its own place
 * in its key's count, so its answer is what one upsert per request would have answered in some
 * order of the batch (docs/decisions.md 67).
 */
export class PostgresCounter {
  private readonly batcher: InFlightBatcher<string, WindowCount>;

  constructor(private readonly pool: pg.Pool) {
    this.batcher = new InFlightBatcher((keys) => this.countAll(keys));
  }

  /** Counts one request of `key` in its window (WINDOW_SECONDS). */
  count(key: string): Promise<WindowCount> {
    return this.batcher.load(key);
  }

  private async countAll(requests: string[]): Promise<WindowCount[]> {
    const perKey = new Map<string, number>();
    for (const key of requests) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    const keys = [...perKey.keys()].sort();
    const now = Date.now();
    const { rows } = await this.pool.query<{ key: string; points: number; expire: string | null }>(COUNT_SQL, [
      keys,
      keys.map((k) => perKey.get(k)!),
      now + WINDOW_SECONDS * 1000,
      now,
    ]);
    const at = Date.now();
    // The batch's requests of a key took the last places of its count, in the order they came.
    const next = new Map<string, { place: number; msBeforeNext: number }>();
    for (const row of rows) {
      next.set(row.key, {
        place: row.points - perKey.get(row.key)! + 1,
        msBeforeNext: row.expire === null ? -1 : Math.max(Number(row.expire) - at, 0),
      });
    }
    return requests.map((key) => {
      const n = next.get(key);
      if (!n) throw new Error("rate limit count not returned");
      return { consumed: n.place++, msBeforeNext: n.msBeforeNext };
    });
  }

  /** Deletes the rows of windows that ended an hour ago (every 5 minutes; losing one is harmless). */
  async clearExpired(): Promise<void> {
    await this.pool.query(`DELETE FROM ${TABLE} WHERE expire < $1`, [Date.now() - 3_600_000]);
  }
}

/**
 * Counts requests per key id against each request's limit. In memory rate-limiter-flexible fixes
 * the points per limiter, so there is one limiter per distinct limit value (few: the default and the
 * values admins chose); on PostgreSQL one counter serves every limit, since the key id alone names
 * the count.
 */
export class KeyRateLimiter {
  private readonly memory = new Map<number, RateLimiterMemory>();
  private readonly counter?: PostgresCounter;
  /**
   * Keys this process saw use up their window, and when that window ends (epoch ms), per limit: a
   * key whose limit changes is counted afresh against the new one.
   */
  private readonly blocked = new Map<string, number>();

  constructor(readonly store: RateStore) {
    if (store.kind === "postgres") {
      const counter = (this.counter = new PostgresCounter(store.pool));
      setInterval(() => {
        counter.clearExpired().catch(() => {}); // not critical: the next sweep deletes them
        const now = Date.now();
        for (const [key, until] of this.blocked) if (until <= now) this.blocked.delete(key);
      }, 300_000).unref();
    }
  }

  /** Counts in this process's memory: the embedded database, or PostgreSQL's insurance when it fails. */
  private inMemory(points: number) {
    let limiter = this.memory.get(points);
    if (!limiter)
      this.memory.set(points, (limiter = new RateLimiterMemory({ keyPrefix: "ak", points, duration: WINDOW_SECONDS })));
    return limiter;
  }

  /** Counts one request of `keyId` against `limit`; null when the limit is 0 (none). */
  async consume(keyId: string, limit: number): Promise<RateDecision | null> {
    if (limit <= 0) return null;
    if (!this.counter) return this.consumeInMemory(keyId, limit);
    const key = `ak:${keyId}`;
    const block = `${limit}/${key}`;
    const until = this.blocked.get(block);
    if (until !== undefined) {
      const ms = until - Date.now();
      if (ms > 0) return toDecision(limit, { remainingPoints: 0, msBeforeNext: ms }, false);
      this.blocked.delete(block);
    }
    let count: WindowCount;
    try {
      count = await this.counter.count(key);
    } catch {
      // If the database fails, count in this process's memory rather than failing requests.
      return this.consumeInMemory(keyId, limit);
    }
    // Once a key has used its window (as this process sees it), refuse it from memory until the
    // window ends: a key hammering past its limit costs no database round trip.
    if (count.consumed >= limit && count.msBeforeNext > 0) this.blocked.set(block, Date.now() + count.msBeforeNext);
    const remainingPoints = Math.max(limit - count.consumed, 0);
    return toDecision(limit, { remainingPoints, msBeforeNext: count.msBeforeNext }, count.consumed <= limit);
  }

  private async consumeInMemory(keyId: string, limit: number): Promise<RateDecision> {
    try {
      return toDecision(limit, await this.inMemory(limit).consume(keyId), true);
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
