import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma as P } from "../generated/prisma/client";
import { queueRetryLimit } from "../queue";
import { openTestDatabase } from "../../test-support/db";
import { startRun, workflowAgent } from "../../test-support/workflow";
import { ORPHANED_ERROR, STOPPED_ERROR, failOrphanedRuns, failStoppedRun, runJob } from "./job";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.dispose());

const WORKFLOW = {
  inputs: { rows: { type: "array", required: true } },
  items: { from: "rows" },
  steps: [{ id: "t", type: "transform", expression: "item" }],
};

/** A run whose stored definition is corrupt, so that every engine pass throws. */
async function brokenRun() {
  const { agent, key } = await workflowAgent(WORKFLOW);
  const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
  await db.prisma.run.update({ where: { id: runId }, data: { definition: { steps: "not a list" } } });
  return runId;
}

const job = (retryCount: number) => ({
  id: "job",
  retryCount,
  signal: new AbortController().signal,
  stopping: new AbortController().signal,
});

describe("run job", () => {
  it("hands an engine error back to the queue while retries remain, leaving the run as it was", async () => {
    const runId = await brokenRun();
    await expect(runJob({ runId, epoch: 0 }, job(queueRetryLimit() - 1))).rejects.toThrow();
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(["pending", "running"]).toContain(run.status);
  });

  it("ends the run failed with a readable error on the last attempt, instead of leaving it running", async () => {
    const runId = await brokenRun();
    await runJob({ runId, epoch: 0 }, job(queueRetryLimit()));
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("failed");
    expect(run.error).toBe(STOPPED_ERROR);
    const events = await db.prisma.auditEvent.findMany({ where: { targetId: runId }, orderBy: { createdAt: "asc" } });
    expect(events.at(-1)?.action).toBe("run.fail");
  });

  it("ends a run failed from pending when its last attempt died before the engine started it", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW);
    const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
    await failStoppedRun(runId, 0);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect({ status: run.status, error: run.error }).toEqual({ status: "failed", error: STOPPED_ERROR });
    const last = await db.prisma.auditEvent.findFirst({ where: { targetId: runId }, orderBy: { createdAt: "desc" } });
    expect(last).toMatchObject({ action: "run.fail", data: { from: "pending", to: "failed" } });
  });

  it("leaves a run alone once a newer engine epoch or a person moved it on", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW);
    const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
    await db.prisma.run.update({ where: { id: runId }, data: { status: "cancelled" } });
    expect(await failStoppedRun(runId, 0)).toMatchObject({ refused: "cancelled" });
    const stale = await startRun(agent, key, { rows: [{ a: 1 }] });
    await db.prisma.run.update({ where: { id: stale }, data: { epoch: 1 } });
    expect(await failStoppedRun(stale, 0)).toMatchObject({ refused: "pending" });
  });
});

type JobState = "created" | "retry" | "active" | "failed" | "completed";

/**
 * Puts the run's queue job (pg-boss's job table, lib/queue/table.ts) in `state`, as the queue would
 * have. An active job is on its `lastAttempt` or has retries left; its worker's heartbeat (the
 * attempt's `started_on`) is fresh unless `lapsed`.
 */
async function setJobState(runId: string, state: JobState, active = { lastAttempt: false, lapsed: false }) {
  const beat = active.lapsed ? P.sql`now() - interval '1 hour'` : P.sql`now()`;
  const n = await db.prisma.$executeRaw(P.sql`
    UPDATE pgboss.job SET state = ${state}::pgboss.job_state, started_on = ${beat},
      retry_count = CASE WHEN ${active.lastAttempt} THEN retry_limit ELSE 0 END
    WHERE name = 'run' AND data->>'runId' = ${runId}`);
  expect(n).toBe(1);
}

async function runIn(status: string, jobState: JobState, active?: Parameters<typeof setJobState>[2]) {
  const { agent, key } = await workflowAgent(WORKFLOW);
  const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
  if (status !== "pending") await db.prisma.run.update({ where: { id: runId }, data: { status } });
  await setJobState(runId, jobState, active);
  return runId;
}

/** A sweep as it would run a long while after the runs above stopped moving. */
const later = () => ({ now: new Date(Date.now() + 60 * 60_000) });

describe("orphaned run sweep", () => {
  it("ends failed, with a readable error and an audit event, a pending or running run whose job failed for good", async () => {
    const pending = await runIn("pending", "failed");
    const running = await runIn("running", "failed");
    // pg-boss has not failed this one yet: its last attempt's worker stopped beating an hour ago.
    const dead = await runIn("running", "active", { lastAttempt: true, lapsed: true });
    const swept = await failOrphanedRuns(later());
    expect(swept).toEqual(expect.arrayContaining([pending, running, dead]));
    for (const [id, from] of [
      [pending, "pending"],
      [running, "running"],
      [dead, "running"],
    ] as const) {
      const run = await db.prisma.run.findUniqueOrThrow({ where: { id } });
      expect({ status: run.status, error: run.error }).toEqual({ status: "failed", error: ORPHANED_ERROR });
      expect(run.completedAt).not.toBeNull();
      const last = await db.prisma.auditEvent.findFirst({ where: { targetId: id }, orderBy: { createdAt: "desc" } });
      expect(last).toMatchObject({ action: "run.fail", actorType: "system", data: { from, to: "failed" } });
    }
    // Ended once: a second sweep finds nothing of them.
    const again = await failOrphanedRuns(later());
    for (const id of [pending, running, dead]) expect(again).not.toContain(id);
  });

  it("never touches a run whose job waits, waits to retry or runs, nor a paused or needs_review run", async () => {
    const queued = await runIn("pending", "created");
    const retrying = await runIn("running", "retry");
    const active = await runIn("running", "active", { lastAttempt: true, lapsed: false });
    // Its worker is gone but retries remain: pg-boss will run it again.
    const toRetry = await runIn("running", "active", { lastAttempt: false, lapsed: true });
    const paused = await runIn("paused", "failed");
    const review = await runIn("needs_review", "completed");
    const ids = [queued, retrying, active, toRetry, paused, review];
    const swept = await failOrphanedRuns(later());
    for (const id of ids) expect(swept).not.toContain(id);
    const statuses = await db.prisma.run.findMany({
      where: { id: { in: ids } },
      select: { id: true, status: true, error: true },
    });
    expect(Object.fromEntries(statuses.map((r) => [r.id, [r.status, r.error]]))).toEqual({
      [queued]: ["pending", null],
      [retrying]: ["running", null],
      [active]: ["running", null],
      [toRetry]: ["running", null],
      [paused]: ["paused", null],
      [review]: ["needs_review", null],
    });
  });

  it("waits out the grace period after the run last moved", async () => {
    const recent = await runIn("running", "failed");
    expect(await failOrphanedRuns({ graceMs: 60_000 })).not.toContain(recent);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: recent } })).status).toBe("running");
    expect(await failOrphanedRuns(later())).toContain(recent);
  });

  it("ends each run once when sweepers race", async () => {
    const ids = [await runIn("running", "failed"), await runIn("pending", "failed"), await runIn("running", "failed")];
    const [a, b] = await Promise.all([failOrphanedRuns(later()), failOrphanedRuns(later())]);
    const mine = [...a, ...b].filter((id) => ids.includes(id));
    expect(mine.sort()).toEqual([...ids].sort());
    const fails = await db.prisma.auditEvent.count({ where: { targetId: { in: ids }, action: "run.fail" } });
    expect(fails).toBe(ids.length);
  });
});
