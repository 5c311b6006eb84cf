import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_RETRY_LIMIT } from "../queue";
import { openTestDatabase } from "../testing/db";
import { startRun, workflowAgent } from "./testing";
import { STOPPED_ERROR, failStoppedRun, runJob } from "./job";

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

const job = (retryCount: number) => ({ id: "job", retryCount, signal: new AbortController().signal });

describe("run job", () => {
  it("hands an engine error back to the queue while retries remain, leaving the run as it was", async () => {
    const runId = await brokenRun();
    await expect(runJob({ runId, epoch: 0 }, job(QUEUE_RETRY_LIMIT - 1))).rejects.toThrow();
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(["pending", "running"]).toContain(run.status);
  });

  it("ends the run failed with a readable error on the last attempt, instead of leaving it running", async () => {
    const runId = await brokenRun();
    await runJob({ runId, epoch: 0 }, job(QUEUE_RETRY_LIMIT));
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
