// A database that ran the service with pg-boss 12 (schema 46) before it pinned pg-boss 10: the
// queue sets the newer schema aside and enqueues its waiting jobs again, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import { queue, stopQueue, work } from "./index";
import { PG_BOSS_SCHEMA_VERSION } from "./table";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

/** The parts of pg-boss 12's schema that the carry-over reads. */
const NEWER_SCHEMA = `
  CREATE SCHEMA pgboss;
  CREATE TABLE pgboss.version (version int PRIMARY KEY);
  INSERT INTO pgboss.version VALUES (46);
  CREATE TYPE pgboss.job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
  CREATE TABLE pgboss.job (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    data jsonb,
    state pgboss.job_state NOT NULL DEFAULT 'created'
  );
  INSERT INTO pgboss.job (name, data, state) VALUES
    ('run', '{"runId": "run_waiting"}', 'created'),
    ('run', '{"runId": "run_retrying"}', 'retry'),
    ('run', '{"runId": "run_active", "epoch": 2}', 'active'),
    ('run', '{"runId": "run_done"}', 'completed'),
    ('run', '{"runId": "run_failed"}', 'failed'),
    ('gone', '{"x": 1}', 'created');
`;

const installedVersion = async () =>
  (await db.sql.query<{ version: number }>(`SELECT max(version)::int AS version FROM pgboss.version`))[0]!.version;

describe("a pg-boss schema newer than the installed pg-boss", () => {
  it("is set aside at start; its jobs that would still run are enqueued again and run", async () => {
    await db.sql.exec(NEWER_SCHEMA);
    const seen: { runId: string; epoch: number }[] = [];
    const stop = await work("run", async (data) => {
      seen.push({ runId: data.runId, epoch: data.epoch });
    });
    const deadline = Date.now() + 20_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(seen.sort((a, b) => a.runId.localeCompare(b.runId))).toEqual([
      { runId: "run_active", epoch: 2 },
      { runId: "run_retrying", epoch: 0 },
      { runId: "run_waiting", epoch: 0 },
    ]);
    expect(await installedVersion()).toBe(PG_BOSS_SCHEMA_VERSION);
    const leftovers = await db.sql.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss_carryover'`);
    expect(leftovers).toEqual([]);
  });

  it("is not set aside again: the next start keeps the installed pg-boss's schema and jobs", async () => {
    await stopQueue();
    await queue();
    expect(await installedVersion()).toBe(PG_BOSS_SCHEMA_VERSION);
    const jobs = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'run'`);
    expect(jobs[0]!.n).toBe(3);
  });
});
