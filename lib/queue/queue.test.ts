import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { openTestDatabase } from "../../test-support/db";
import { enqueue, queue, stopQueue, transactionWithJobs, work, type JobInfo } from "./index";
import type { QueueDb } from "./adapters";
import { listenForJobs } from "./listener";
import {
  beat,
  capRetryDelays,
  completeClaim,
  failClaim,
  PG_BOSS_SCHEMA_VERSION,
  RETRY_DELAY_MAX_SECONDS,
  type Claim,
} from "./table";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
const heartbeatBefore = process.env.QUEUE_HEARTBEAT_SECONDS;
beforeAll(async () => {
  // The shortest heartbeat (10 s): a worker beats every 5 s.
  process.env.QUEUE_HEARTBEAT_SECONDS = "10";
  resetEnvCache();
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
  if (heartbeatBefore === undefined) delete process.env.QUEUE_HEARTBEAT_SECONDS;
  else process.env.QUEUE_HEARTBEAT_SECONDS = heartbeatBefore;
  resetEnvCache();
});

const until = async (done: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 50));
  }
};

const jobRow = async (id: string) =>
  (
    await db.sql.query<{ state: string; retry_count: number; wait_s: number }>(
      `SELECT state::text AS state, retry_count, extract(epoch FROM start_after - now())::float8 AS wait_s
       FROM pgboss.job WHERE id = $1`,
      [id],
    )
  )[0]!;

/** The queue's own connection (the pool pg-boss opened, or the PGlite instance). */
const qdb = async () => (await queue()).getDb() as QueueDb;

/** Claims the job `id` as a worker would (the queue's workers are stopped between tests). */
async function claim(id: string): Promise<Claim> {
  await db.sql.query(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE id = $1`, [id]);
  const boss = await queue();
  const [job] = await boss.fetch<unknown>("run", { includeMetadata: true });
  expect(job?.id).toBe(id);
  return { name: "run", id, retryCount: job!.retryCount };
}

/** Moves the claimed attempt's last heartbeat `seconds` before its expiry (negative: after it). */
const ageHeartbeat = (id: string, seconds: number) =>
  db.sql.query(`UPDATE pgboss.job SET started_on = now() - expire_in + $2 * interval '1 second' WHERE id = $1`, [
    id,
    seconds,
  ]);

const jobsWith = async (messageId: string) =>
  Number(
    (
      await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'runId' = $1`, [messageId])
    )[0]!.n,
  );

describe("queue", () => {
  it("delivers a job enqueued in a committed transaction, and none from a rolled-back one", async () => {
    const seen: string[] = [];
    const stop = await work("run", async (data) => {
      seen.push(data.runId);
    });
    await transactionWithJobs(async (tx) => {
      await tx.organization.create({ data: { id: "org_q1", name: "q1" } });
      await enqueue("run", { runId: "committed" }, { tx });
    });
    await transactionWithJobs(async (tx) => {
      await enqueue("run", { runId: "rolled-back" }, { tx });
      throw new Error("abort");
    }).catch(() => {});
    const deadline = Date.now() + 10_000;
    while (!seen.includes("committed") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(["committed"]);
    // The rolled-back job does not exist at all, so no later delivery can happen.
    expect(await jobsWith("rolled-back")).toBe(0);
    expect(await jobsWith("committed")).toBe(1);
    expect(await db.prisma.organization.count({ where: { id: "org_q1" } })).toBe(1);
    await stop();
    expect(await queue()).toBeTruthy();
  });

  it("refuses to enqueue data that does not match the queue's schema", async () => {
    await expect(enqueue("run", { runId: "" } as never)).rejects.toThrow();
    await expect(enqueue("run", { epoch: 1 } as never)).rejects.toThrow();
  });

  it("drops a stored job whose data does not parse instead of handing it to the handler", async () => {
    const handled: unknown[] = [];
    const stop = await work("run", async (data) => {
      handled.push(data);
    });
    const boss = await queue();
    // Written around enqueue's check, as an older release or a hand-made job would be.
    const bad = await boss.send("run", { nope: true });
    await enqueue("run", { runId: "run_good" });
    const deadline = Date.now() + 10_000;
    while (!handled.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const state = async () => (await boss.getJobById("run", bad!))?.state;
    while ((await state()) !== "completed" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(handled).toEqual([{ runId: "run_good", epoch: 0 }]);
    expect(await state()).toBe("completed");
  });
});

describe("fair queuing between organizations", () => {
  it("fetches each organization's jobs in order, organizations taking turns, a newcomer next", async () => {
    await db.sql.query(`DELETE FROM pgboss.job WHERE name = 'run'`);
    const ids = new Map<string, string>();
    const add = async (label: string, organizationId: string) =>
      ids.set((await enqueue("run", { runId: label, organizationId }))!, label);
    for (const i of [1, 2, 3, 4]) await add(`a${i}`, "org_a");
    for (const i of [1, 2]) await add(`c${i}`, "org_c");
    await add("b1", "org_b");
    await add("a5", "org_a");
    // Every job ready now (enqueue woke no worker: none runs between tests).
    await db.sql.query(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = 'run'`);
    const boss = await queue();
    const order: string[] = [];
    for (;;) {
      const [job] = await boss.fetch<{ runId: string }>("run");
      if (!job) break;
      order.push(job.data.runId);
      await boss.complete("run", job.id);
    }
    // Tags: a1..a5 = 0..4 (a5 after a4), c1 c2 = 0 1, b1 = 0; equal tags by age.
    expect(order).toEqual(["a1", "c1", "b1", "a2", "c2", "a3", "a4", "a5"]);
  });

  it("places a job behind the running ones: its tag is never below the highest tag running", async () => {
    await db.sql.query(`DELETE FROM pgboss.job WHERE name = 'run'`);
    await enqueue("run", { runId: "x1", organizationId: "org_x" });
    await enqueue("run", { runId: "x2", organizationId: "org_x" });
    const boss = await queue();
    await db.sql.query(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = 'run'`);
    const [first] = await boss.fetch<{ runId: string }>("run");
    const [second] = await boss.fetch<{ runId: string }>("run");
    expect([first?.data.runId, second?.data.runId]).toEqual(["x1", "x2"]);
    // x2 (tag 1) runs: a new organization's first job is tagged 1, not 0.
    await enqueue("run", { runId: "y1", organizationId: "org_y" });
    const tags = await db.sql.query<{ run: string; tag: number }>(
      `SELECT data->>'runId' AS run, -priority AS tag FROM pgboss.job WHERE name = 'run' ORDER BY created_on`,
    );
    expect(tags).toEqual([
      { run: "x1", tag: 0 },
      { run: "x2", tag: 1 },
      { run: "y1", tag: 1 },
    ]);
    await db.sql.query(`DELETE FROM pgboss.job WHERE name = 'run'`);
  });
});

describe("queue attempts", () => {
  it("uses the schema of the installed pg-boss, with an index of the live jobs on every queue's partition", async () => {
    const installed = JSON.parse(readFileSync(path.resolve("node_modules/pg-boss/version.json"), "utf8"));
    expect(installed.schema).toBe(PG_BOSS_SCHEMA_VERSION);
    await queue();
    const indexed = await db.sql.query<{ tablename: string }>(
      `SELECT tablename FROM pg_indexes WHERE schemaname = 'pgboss' AND indexdef LIKE '%(name, state)%'`,
    );
    const partitions = await db.sql.query<{ partition: string }>(
      `SELECT partition_name AS partition FROM pgboss.queue`,
    );
    expect(partitions.length).toBeGreaterThan(0);
    expect(indexed.map((i) => i.tablename).sort()).toEqual(["job", ...partitions.map((p) => p.partition)].sort());
  });

  it("keeps a beating attempt; retries one whose heartbeat lapsed, and its old claim then settles nothing", async () => {
    const boss = await queue();
    const id = (await boss.send("run", { runId: "run_beat" }))!;
    const first = await claim(id);
    expect(first.retryCount).toBe(0);
    await ageHeartbeat(id, 1);
    expect(await beat(await qdb(), first)).toBe(true);
    await boss.maintain();
    expect((await jobRow(id)).state).toBe("active");

    await ageHeartbeat(id, -1);
    await boss.maintain();
    expect((await jobRow(id)).state).toBe("retry");
    expect(await beat(await qdb(), first)).toBe(false);
    expect(await completeClaim(await qdb(), first)).toBe(false);
    expect(await failClaim(await qdb(), first, { name: "Error", message: "late" })).toBeNull();

    const second = await claim(id);
    expect(second.retryCount).toBe(1);
    expect(await completeClaim(await qdb(), first)).toBe(false);
    expect(await completeClaim(await qdb(), second)).toBe(true);
    expect((await jobRow(id)).state).toBe("completed");
  });

  it("waits at most the cap before a retry, and fails the job for good after its last attempt", async () => {
    const boss = await queue();
    const id = (await boss.send("run", { runId: "run_backoff" }))!;
    await claim(id);
    // The ninth retry: pg-boss's backoff alone would wait 512-1024 s.
    await db.sql.query(`UPDATE pgboss.job SET retry_count = 9, retry_limit = 10 WHERE id = $1`, [id]);
    expect(await failClaim(await qdb(), { name: "run", id, retryCount: 9 }, { name: "Error", message: "boom" })).toBe(
      "retry",
    );
    const waiting = await jobRow(id);
    expect(waiting.state).toBe("retry");
    expect(waiting.wait_s).toBeLessThanOrEqual(RETRY_DELAY_MAX_SECONDS);
    expect(waiting.wait_s).toBeGreaterThan(RETRY_DELAY_MAX_SECONDS / 2);

    const last = await claim(id);
    expect(last.retryCount).toBe(10);
    expect(await failClaim(await qdb(), last, { name: "Error", message: "boom" })).toBe("failed");
    expect((await jobRow(id)).state).toBe("failed");
    const [output] = await db.sql.query<{ output: unknown }>(`SELECT output FROM pgboss.job WHERE id = $1`, [id]);
    expect(output!.output).toEqual({ name: "Error", message: "boom" });
  });

  it("brings a supervisor's long retry delay back within the cap", async () => {
    const boss = await queue();
    const id = (await boss.send("run", { runId: "run_cap" }))!;
    await db.sql.query(`UPDATE pgboss.job SET state = 'retry', start_after = now() + interval '1 hour' WHERE id = $1`, [
      id,
    ]);
    await capRetryDelays(await qdb(), "run");
    expect((await jobRow(id)).wait_s).toBeLessThanOrEqual(RETRY_DELAY_MAX_SECONDS);
    await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
  });

  it("hands the handler its retry count and a signal; the heartbeat aborts an attempt whose job was taken", async () => {
    const started: JobInfo[] = [];
    const stop = await work("run", async (_data, job) => {
      started.push(job);
      await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
    });
    const id = (await enqueue("run", { runId: "run_taken" }))!;
    await until(() => started.length === 1);
    expect(started[0]).toMatchObject({ id, retryCount: 0 });
    // The supervisor takes the job (as if this worker had stalled past its heartbeat): the next beat,
    // within 5 s, finds the claim gone.
    await ageHeartbeat(id, -1);
    await (await queue()).maintain();
    await until(() => started[0]!.signal.aborted);
    await stop();
    await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
  });

  it("lets a stopped worker's job run on; stopping the queue fails it, to be retried, and aborts its handler", async () => {
    const started: JobInfo[] = [];
    let release = () => {};
    const stop = await work("run", async (_data, job) => {
      started.push(job);
      await new Promise<void>((resolve) => {
        job.signal.addEventListener("abort", () => resolve());
        release = resolve;
      });
    });
    const first = (await enqueue("run", { runId: "run_paused" }))!;
    await until(() => started.length === 1);
    await stop();
    // Stopped taking jobs: the running one goes on and completes; a new one waits.
    const waiting = (await enqueue("run", { runId: "run_waiting" }))!;
    release();
    await until(async () => (await jobRow(first)).state === "completed");
    expect((await jobRow(waiting)).state).toBe("created");
    expect(started).toHaveLength(1);
    await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [waiting]);

    await work("run", async (_data, job) => {
      started.push(job);
      await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
    });
    const id = (await enqueue("run", { runId: "run_stopped" }))!;
    await until(() => started.length === 2);
    await stopQueue(1_000);
    expect(started[1]!.signal.aborted).toBe(true);
    expect((await jobRow(id)).state).toBe("retry");
    await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
  });

  it("tells a running handler that the queue is stopping (`stopping`), before any abort: one that finishes then completes", async () => {
    const seen: { stoppingFirst: boolean }[] = [];
    await work("run", async (_data, job) => {
      await new Promise<void>((resolve) => job.stopping.addEventListener("abort", () => resolve()));
      seen.push({ stoppingFirst: !job.signal.aborted });
    });
    const id = (await enqueue("run", { runId: "run_handed_over" }))!;
    await until(async () => (await jobRow(id)).state === "active");
    await stopQueue(60_000);
    expect(seen).toEqual([{ stoppingFirst: true }]);
    expect((await jobRow(id)).state).toBe("completed");
    await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "announces a committed job to listening processes on PostgreSQL, and never a rolled-back one",
    async () => {
      const heard: string[] = [];
      let connected = false;
      const listener = listenForJobs(
        db.connectionString!,
        (name) => heard.push(name),
        () => (connected = true),
      );
      try {
        await until(() => connected);
        expect(listener.listening).toBe(true);
        await transactionWithJobs(async (tx) => {
          await enqueue("run", { runId: "run_notify_rolled_back" }, { tx });
          throw new Error("abort");
        }).catch(() => {});
        expect(heard).toEqual([]);
        const id = await transactionWithJobs((tx) => enqueue("run", { runId: "run_notify" }, { tx }));
        // Notifications arrive in commit order: had the rolled-back one been sent, it came first.
        await until(() => heard.length > 0);
        expect(heard).toEqual(["run"]);
        await db.sql.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
      } finally {
        await listener.close();
      }
    },
  );
});
