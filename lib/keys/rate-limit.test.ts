import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import type pg from "pg";
import {
  consumeKeyRate,
  effectiveLimit,
  KeyRateLimiter,
  PostgresCounter,
  toDecision,
  WINDOW_SECONDS,
} from "./rate-limit";

describe("rate limit decisions (pure)", () => {
  it("takes the key's own limit, else the default; 0 is no limit", () => {
    expect(effectiveLimit(5, 600)).toBe(5);
    expect(effectiveLimit(null, 600)).toBe(600);
    expect(effectiveLimit(null, 0)).toBe(0);
  });

  it("rounds the reset up to whole seconds within the window, and a refusal leaves nothing", () => {
    expect(toDecision(10, { remainingPoints: 7, msBeforeNext: 41_200 }, true)).toEqual({
      limit: 10,
      remaining: 7,
      resetSeconds: 42,
      allowed: true,
    });
    expect(toDecision(10, { remainingPoints: 3, msBeforeNext: 100 }, false)).toMatchObject({
      remaining: 0,
      resetSeconds: 1,
      allowed: false,
    });
    // A window that just ended still says 1 s (Retry-After: 0 would invite a busy loop).
    expect(toDecision(10, { remainingPoints: 0, msBeforeNext: 0 }, false).resetSeconds).toBe(1);
    // No expiry reported: the whole window.
    expect(toDecision(10, { remainingPoints: 0, msBeforeNext: -1 }, false).resetSeconds).toBe(WINDOW_SECONDS);
  });
});

describe("in memory (the embedded database)", () => {
  it("allows `limit` requests a window per key, then refuses; other keys and limits count apart", async () => {
    const limiter = new KeyRateLimiter({ kind: "memory" });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await limiter.consume("key_a", 3));
    expect(seen.map((d) => [d!.allowed, d!.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(seen[3]!.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(seen[3]!.resetSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(await limiter.consume("key_b", 3)).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
    expect(await limiter.consume("key_c", 100)).toMatchObject({ allowed: true, remaining: 99, limit: 100 });
    expect(await limiter.consume("key_d", 0)).toBeNull();
  });
});

describe("when PostgreSQL fails", () => {
  it("counts in the process's memory instead of failing the request", async () => {
    const down = { query: () => Promise.reject(new Error("connection refused")) } as unknown as pg.Pool;
    const limiter = new KeyRateLimiter({ kind: "postgres", pool: down });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(await limiter.consume("key_down", 2));
    expect(seen.map((d) => [d!.allowed, d!.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });
});

describe("on the test database", () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.dispose());

  it("counts through the process's limiter: on PostgreSQL in the shared table, else in memory", async () => {
    const key = { keyId: "key_process", rateLimitPerMinute: 2 };
    expect(await consumeKeyRate(key)).toMatchObject({ allowed: true, remaining: 1, limit: 2 });
    expect(await consumeKeyRate(key)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await consumeKeyRate(key)).toMatchObject({ allowed: false, remaining: 0 });
    const rows = await db.sql.query<{ points: number }>(`SELECT points FROM rate_limits WHERE key = $1`, [
      "ak:key_process",
    ]);
    if (db.kind === "postgres") expect(rows.map((r) => r.points)).toEqual([2]);
    else expect(rows).toEqual([]);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "shares one count between processes, and a process that saw the key over its limit stops asking the database",
    async () => {
      // Two limiters on the same table stand for two server processes.
      const a = new KeyRateLimiter({ kind: "postgres", pool: db.pool! });
      const b = new KeyRateLimiter({ kind: "postgres", pool: db.pool! });
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await (i % 2 ? b : a).consume("key_shared", 5));
      expect(answers.map((d) => d!.allowed)).toEqual([true, true, true, true, true, false, false, false]);
      expect(answers.map((d) => d!.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);

      const points = async () =>
        (await db.sql.query<{ points: number }>(`SELECT points FROM rate_limits WHERE key = 'ak:key_shared'`))[0]!
          .points;
      // a answered the 5th request (the last allowed) and blocks the key in memory from then on;
      // b reached the database once with the 6th (refused, then blocked too): 5 + 1 counted.
      expect(await points()).toBe(6);
      for (let i = 0; i < 10; i++) {
        expect(await a.consume("key_shared", 5)).toMatchObject({ allowed: false });
        expect(await b.consume("key_shared", 5)).toMatchObject({ allowed: false });
      }
      expect(await points()).toBe(6);
    },
  );

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "counts the requests that arrive while a count is on its way in one statement, each in its own place",
    async () => {
      let statements = 0;
      const counting = {
        query: (...args: Parameters<pg.Pool["query"]>) => {
          statements++;
          return (db.pool!.query as (...a: unknown[]) => unknown)(...args);
        },
      } as unknown as pg.Pool;
      const counter = new PostgresCounter(counting);
      // 20 requests of one key and 5 of another at once: the first goes alone, the 24 others wait
      // for it and go together.
      const counts = await Promise.all([
        ...Array.from({ length: 20 }, () => counter.count("ak:key_batch_a")),
        ...Array.from({ length: 5 }, () => counter.count("ak:key_batch_b")),
      ]);
      expect(statements).toBe(2);
      expect(counts.slice(0, 20).map((c) => c.consumed)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(counts.slice(20).map((c) => c.consumed)).toEqual([1, 2, 3, 4, 5]);
      for (const c of counts) {
        expect(c.msBeforeNext).toBeGreaterThan(0);
        expect(c.msBeforeNext).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);
      }
      const rows = await db.sql.query<{ key: string; points: number }>(
        `SELECT key, points FROM rate_limits WHERE key LIKE 'ak:key_batch_%' ORDER BY key`,
      );
      expect(rows).toEqual([
        { key: "ak:key_batch_a", points: 20 },
        { key: "ak:key_batch_b", points: 5 },
      ]);

      // Through the limiter: 12 at once against a limit of 10 answer 10 distinct remainders and 2
      // refusals, as one upsert each would have.
      const limiter = new KeyRateLimiter({ kind: "postgres", pool: db.pool! });
      const answers = await Promise.all(Array.from({ length: 12 }, () => limiter.consume("key_batch_c", 10)));
      expect(answers.filter((d) => d!.allowed).map((d) => d!.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(answers.filter((d) => !d!.allowed).map((d) => d!.remaining)).toEqual([0, 0]);
    },
  );
});
