import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import { Prisma as P, type Agent } from "../generated/prisma/client";
import type { KeyPrincipal } from "../auth/access-keys";
import { startRun, workflowAgent } from "../../test-support/workflow";
import { BULK_ORPHANED_ERROR, failOrphanedBulkActions, runBulkAction } from "./job";
import { getBulkAction, previewBulkAction, startBulkAction } from "./service";

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
const actor = { type: "user" as const, id: "usr_test", label: "support@example.com" };
const BASE = "http://localhost:3000";

/** An organization with runs in the given states (set directly: the engine is not run). */
async function seed(states: string[]): Promise<{ agent: Agent; key: KeyPrincipal; runs: string[] }> {
  const { agent, key } = await workflowAgent(WORKFLOW);
  const runs: string[] = [];
  for (const status of states) {
    const id = await startRun(agent, key, { rows: [{ a: 1 }] });
    await db.prisma.run.update({ where: { id }, data: { status } });
    runs.push(id);
  }
  return { agent, key, runs };
}

const moveAudits = (runIds: string[], action: string) =>
  db.prisma.auditEvent.findMany({ where: { action, targetType: "run", targetId: { in: runIds } } });

describe("bulk actions on runs", () => {
  it("counts the dry run by the table of moves: allowed states, the others by status, ids of another organization as not found", async () => {
    const { agent, runs } = await seed(["running", "running", "paused", "completed", "failed", "cancelled"]);
    const other = await seed(["running"]);
    const preview = await previewBulkAction({
      organizationId: agent.organizationId,
      role: "support",
      input: { action: "cancel", selection: { run_ids: [...runs, other.runs[0]!] } },
    });
    expect(preview).toMatchObject({ matched: 6, allowed: 3 });
    expect(preview.not_allowed).toEqual([
      { reason: "not_found", status: null, count: 1 },
      { reason: "status", status: "cancelled", count: 1 },
      { reason: "status", status: "completed", count: 1 },
      { reason: "status", status: "failed", count: 1 },
    ]);
    expect(preview.sample.map((s) => s.id).sort()).toEqual(runs.slice(0, 3).sort());
    const retry = await previewBulkAction({
      organizationId: agent.organizationId,
      role: "support",
      input: { action: "retry", selection: { filter: {} } },
    });
    expect(retry).toMatchObject({ matched: 6, allowed: 1 });
  });

  it("moves each allowed run once, with its audit row naming the bulk action, even when the walk is restarted and run twice at once", async () => {
    const { agent, runs } = await seed(["running", "pending", "paused", "completed", "running"]);
    const other = await seed(["running"]);
    const started = await startBulkAction({
      organizationId: agent.organizationId,
      role: "support",
      actor,
      input: { action: "cancel", selection: { run_ids: [...runs, other.runs[0]!] }, expected_count: 4 },
      baseUrl: BASE,
    });
    await Promise.all([
      runBulkAction({ bulkActionId: started.bulk_action_id }),
      runBulkAction({ bulkActionId: started.bulk_action_id }),
    ]);
    const finals = await db.prisma.auditEvent.findMany({
      where: { action: "bulk_action.completed", targetId: started.bulk_action_id },
    });
    expect(finals).toHaveLength(1);
    // A restart that lost the last batch's cursor: the walk starts over from the beginning.
    await db.prisma.bulkAction.update({
      where: { id: started.bulk_action_id },
      data: { status: "running", cursor: null },
    });
    await runBulkAction({ bulkActionId: started.bulk_action_id });

    const audits = await moveAudits(runs, "run.cancel");
    expect(audits).toHaveLength(4);
    expect(new Set(audits.map((a) => a.targetId)).size).toBe(4);
    for (const a of audits) expect(a.data).toMatchObject({ bulk_action_id: started.bulk_action_id, to: "cancelled" });
    const statuses = await db.prisma.run.findMany({ where: { id: { in: runs } }, select: { id: true, status: true } });
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [runs[0]!]: "cancelled",
      [runs[1]!]: "cancelled",
      [runs[2]!]: "cancelled",
      [runs[3]!]: "completed",
      [runs[4]!]: "cancelled",
    });
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: other.runs[0]! } })).status).toBe("running");
    expect(await moveAudits(other.runs, "run.cancel")).toHaveLength(0);

    const record = await getBulkAction({ organizationId: agent.organizationId, id: started.bulk_action_id });
    expect(record).toMatchObject({
      status: "completed",
      total: 6,
      processed: 6,
      counts: { done: 4, skipped: 2, failed: 0 },
    });
    expect(record.skipped_reasons).toEqual([
      { reason: "not_found", status: null, count: 1 },
      { reason: "status", status: "completed", count: 1 },
    ]);
  });

  it("continues a half-done walk from its stored cursor without moving the runs of the batches before it", async () => {
    const { agent, runs } = await seed(["paused", "paused", "paused"]);
    const started = await startBulkAction({
      organizationId: agent.organizationId,
      role: "admin",
      actor,
      input: { action: "resume", selection: { filter: { agent_id: agent.id } } },
      baseUrl: BASE,
    });
    await runBulkAction({ bulkActionId: started.bulk_action_id });
    // Half-done as a crash would leave it: the moves are committed, the record still running.
    await db.prisma.bulkAction.update({ where: { id: started.bulk_action_id }, data: { status: "running" } });
    await db.prisma.run.updateMany({ where: { id: { in: runs } }, data: { status: "paused" } });
    await runBulkAction({ bulkActionId: started.bulk_action_id });
    expect(await moveAudits(runs, "run.resume")).toHaveLength(3);
    expect(await db.prisma.run.count({ where: { id: { in: runs }, status: "paused" } })).toBe(3);
  });

  it("leaves out of a selection by filter the runs created after the action started", async () => {
    const { agent, key, runs } = await seed(["running", "running"]);
    const started = await startBulkAction({
      organizationId: agent.organizationId,
      role: "support",
      actor,
      input: { action: "pause", selection: { filter: { agent_id: agent.id, status: "running" } } },
      baseUrl: BASE,
    });
    await new Promise((r) => setTimeout(r, 5));
    const late = await startRun(agent, key, { rows: [{ a: 1 }] });
    await db.prisma.run.update({ where: { id: late }, data: { status: "running" } });
    await runBulkAction({ bulkActionId: started.bulk_action_id });
    expect(await db.prisma.run.count({ where: { id: { in: runs }, status: "paused" } })).toBe(2);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: late } })).status).toBe("running");
  });

  it("refuses a start whose expected count is no longer what the selection allows", async () => {
    const { agent, runs } = await seed(["running"]);
    await expect(
      startBulkAction({
        organizationId: agent.organizationId,
        role: "support",
        actor,
        input: { action: "cancel", selection: { run_ids: runs }, expected_count: 2 },
        baseUrl: BASE,
      }),
    ).rejects.toMatchObject({ code: "selection_changed" });
  });

  it("lets only admins act on Access Keys", async () => {
    const { agent } = await seed([]);
    await expect(
      previewBulkAction({
        organizationId: agent.organizationId,
        role: "support",
        input: { action: "revoke", selection: { filter: {} } },
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("orphaned bulk action sweep", () => {
  /** Puts the bulk action's queue job in `state`; an active one on its last attempt, its heartbeat lapsed or not. */
  async function setJobState(bulkActionId: string, state: "created" | "retry" | "active" | "failed", lapsed = true) {
    const beat = lapsed ? P.sql`now() - interval '1 hour'` : P.sql`now()`;
    const n = await db.prisma.$executeRaw(P.sql`
      UPDATE pgboss.job SET state = ${state}::pgboss.job_state, started_on = ${beat}, retry_count = retry_limit
      WHERE name = 'bulk_action' AND data->>'bulkActionId' = ${bulkActionId}`);
    expect(n).toBe(1);
  }

  async function runningAction(): Promise<{ id: string; runs: string[]; org: string }> {
    const { agent, runs } = await seed(["running", "running", "running"]);
    const started = await startBulkAction({
      organizationId: agent.organizationId,
      role: "support",
      actor,
      input: { action: "pause", selection: { run_ids: runs } },
      baseUrl: BASE,
    });
    await db.prisma.bulkAction.update({ where: { id: started.bulk_action_id }, data: { status: "running" } });
    return { id: started.bulk_action_id, runs, org: agent.organizationId };
  }

  const later = () => ({ now: new Date(Date.now() + 60 * 60_000) });

  it("ends failed, once and with its audit row, a running bulk action whose job's last attempt died; its moved runs stay moved once", async () => {
    const failedJob = await runningAction();
    const deadWorker = await runningAction();
    // The walk had moved one run before its process died: its outcome row stays, and it is not moved again.
    await runBulkAction({ bulkActionId: failedJob.id });
    await db.prisma.bulkAction.update({ where: { id: failedJob.id }, data: { status: "running", completedAt: null } });
    await setJobState(failedJob.id, "failed");
    await setJobState(deadWorker.id, "active", true);

    const swept = await failOrphanedBulkActions(later());
    expect(swept).toEqual(expect.arrayContaining([failedJob.id, deadWorker.id]));
    for (const { id, org } of [failedJob, deadWorker]) {
      const record = await getBulkAction({ organizationId: org, id });
      expect({ status: record.status, error: record.error }).toEqual({ status: "failed", error: BULK_ORPHANED_ERROR });
      expect(record.completed_at).not.toBeNull();
    }
    const ends = await db.prisma.auditEvent.findMany({
      where: { action: "bulk_action.completed", targetId: { in: [failedJob.id, deadWorker.id] } },
    });
    // failedJob's own walk completed once before the crash was simulated; the sweep adds one per action.
    expect(ends.filter((e) => e.targetId === deadWorker.id)).toHaveLength(1);
    expect(ends.find((e) => e.targetId === deadWorker.id)?.data).toMatchObject({ status: "failed" });
    expect(await moveAudits(failedJob.runs, "run.pause")).toHaveLength(3);

    const again = await failOrphanedBulkActions(later());
    expect(again).not.toContain(failedJob.id);
    expect(again).not.toContain(deadWorker.id);
  });

  it("leaves alone a bulk action whose job waits, waits to retry or runs with a live heartbeat, and one that moved within the grace", async () => {
    const queued = await runningAction();
    const retrying = await runningAction();
    const active = await runningAction();
    const recent = await runningAction();
    await setJobState(retrying.id, "retry");
    await setJobState(active.id, "active", false);
    await setJobState(recent.id, "failed");
    // Its job failed, but the record moved a moment ago: within the grace, it is left alone.
    expect(await failOrphanedBulkActions({ graceMs: 60_000 })).not.toContain(recent.id);
    expect((await db.prisma.bulkAction.findUniqueOrThrow({ where: { id: recent.id } })).status).toBe("running");
    const swept = await failOrphanedBulkActions(later());
    for (const a of [queued, retrying, active]) expect(swept).not.toContain(a.id);
    expect(swept).toContain(recent.id);
    const rows = await db.prisma.bulkAction.findMany({
      where: { id: { in: [queued.id, retrying.id, active.id] } },
      select: { status: true },
    });
    expect(rows.map((r) => r.status)).toEqual(["running", "running", "running"]);
  });
});
