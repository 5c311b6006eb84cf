// Controls racing live engines (the run controls under concurrency). Two parts, neither of which depends on
// what a random schedule happens to produce:
// - forced schedules: an `http` step whose upstream holds the item in flight (a barrier) pins the
//   engine mid-run while controls fire, so each interleaving that matters is produced on purpose and
//   its final state is known;
// - a seeded property test: random concurrent controls against engines that work and finish at the
//   same time; whatever interleaving occurs, the run ends in one legal state, its audit trail is a
//   path of RUN_MOVES, and its counters equal its item rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../generated/prisma/client";
import { resetEnvCache } from "../env";
import { isApiError } from "../errors";
import { stopQueue } from "../queue";
import { listApprovals, resolveApproval } from "../runs/approvals";
import { controlRun, recordOf } from "../runs/service";
import { CONTROL_ACTIONS, isLegalMove, RUN_MOVES, type ControlAction, type RunMove } from "../runs/state";
import { startBarrier, type Barrier } from "../../test-support/runtime";
import { openTestDatabase } from "../../test-support/db";
import { runEngine } from "./engine";
import { startRun, workflowAgent } from "../../test-support/workflow";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let barrier: Barrier;
beforeAll(async () => {
  // The barrier upstream listens on 127.0.0.1, a loopback address the upstream guard refuses by default.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  resetEnvCache();
  db = await openTestDatabase();
  barrier = await startBarrier();
});
afterAll(async () => {
  await barrier.close();
  await stopQueue();
  await db.dispose();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const actor = { type: "access_key" as const, id: "key_x", label: "race key" };
const BASE = "http://localhost";

/** Items 0..n-1; item `holdAt` is held at the barrier; `reviewAt` waits for review; `failAt` fails the run. */
const rows = (n: number, marks: { holdAt?: number; reviewAt?: number; failAt?: number } = {}) =>
  Array.from({ length: n }, (_, i) => ({
    n: i,
    hold: i === marks.holdAt,
    review: i === marks.reviewAt,
    fail: i === marks.failAt,
  }));

const WORKFLOW = () => ({
  inputs: { rows: { type: "array", required: true } },
  items: { from: "rows" },
  steps: [
    { id: "call", type: "http", url: barrier.url, timeout_ms: 60_000, into: "answer" },
    { id: "boom", type: "fail", when: "item.fail", fatal: true },
    { id: "look", type: "review", when: "item.review" },
  ],
});

/**
 * Starts one engine per epoch while the run is pending or running, as the queue would (a new epoch
 * may start before the old engine noticed it is stale). `settle()` waits until the run has left
 * pending/running and every engine returned.
 */
function driver(runId: string) {
  const started = new Set<number>();
  const engines: Promise<void>[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      if ((run.status === "pending" || run.status === "running") && !started.has(run.epoch)) {
        started.add(run.epoch);
        engines.push(runEngine({ runId, epoch: run.epoch, baseUrl: BASE }));
      }
      await sleep(2);
    }
  })();
  return {
    async settle() {
      for (;;) {
        const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
        if (!["pending", "running"].includes(run.status) && engines.length === started.size) {
          await Promise.all(engines);
          const again = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
          if (again.epoch === run.epoch && !["pending", "running"].includes(again.status)) break;
        }
        await sleep(5);
      }
      stop = true;
      await loop;
    },
  };
}

async function control(agent: Agent, runId: string, action: ControlAction): Promise<"ok" | "refused"> {
  try {
    await controlRun({ agent, runId, action, actor, triggeredBy: "race", baseUrl: BASE });
    return "ok";
  } catch (e) {
    if (isApiError(e) && e.code === "invalid_state_transition") return "refused";
    throw e;
  }
}

/** The run's audit trail is a path of legal moves ending in its status; its counters match its items. */
async function expectConsistent(runId: string, label: string) {
  const rec = await recordOf(runId, BASE);
  const events = rec.events;
  expect(events[0], label).toMatchObject({ action: "trigger", from: null, to: "pending" });
  for (let i = 1; i < events.length; i++) {
    const e = events[i]!;
    expect(e.action in RUN_MOVES, `${label}: event ${i} ${JSON.stringify(e)}`).toBe(true);
    expect(isLegalMove(e.from ?? "", e.to, e.action as RunMove), `${label}: event ${i} ${JSON.stringify(e)}`).toBe(
      true,
    );
    expect(e.from, `${label}: path broken at ${i}`).toBe(events[i - 1]!.to);
  }
  expect(events.at(-1)!.to, label).toBe(rec.status);
  const groups = await db.prisma.runItem.groupBy({ by: ["status"], where: { runId }, _count: true });
  const count = (s: string) => groups.find((r) => r.status === s)?._count ?? 0;
  expect(rec.item_counts, label).toEqual({
    completed: count("completed") + count("skipped"),
    failed: count("failed"),
    needs_review: count("needs_review"),
    total: groups.reduce((n, r) => n + r._count, 0),
  });
  expect(rec.summary.total_processed, label).toBe(count("completed") + count("failed") + count("needs_review"));
  return { rec, moves: events.slice(1).map((e) => e.action) };
}

describe("controls racing the engine, forced schedules", () => {
  it("cancel while an item is in flight aborts it; the run ends cancelled with that item unprocessed", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(5, { holdAt: 2 }) });
    const d = driver(runId);
    await barrier.arrived();
    expect(await control(agent, runId, "cancel")).toBe("ok");
    await d.settle();
    barrier.release();
    const { rec, moves } = await expectConsistent(runId, "cancel in flight");
    expect(rec.status).toBe("cancelled");
    expect(moves).toEqual(["start", "cancel"]);
    expect(rec.item_counts.completed).toBe(2);
  });

  it("pause while an item is in flight lets it finish and stops; resume then completes the run", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(5, { holdAt: 2 }) });
    const d = driver(runId);
    await barrier.arrived();
    expect(await control(agent, runId, "pause")).toBe("ok");
    barrier.release();
    await d.settle();
    const paused = await expectConsistent(runId, "paused");
    expect(paused.rec.status).toBe("paused");
    expect(paused.rec.item_counts.completed).toBe(3); // items 0 and 1, and item 2 that was in flight

    const d2 = driver(runId);
    expect(await control(agent, runId, "resume")).toBe("ok");
    await d2.settle();
    const { rec, moves } = await expectConsistent(runId, "resumed");
    expect(rec.status).toBe("completed");
    expect(moves).toEqual(["start", "pause", "resume", "finish"]);
    expect(rec.item_counts).toEqual({ completed: 5, failed: 0, needs_review: 0, total: 5 });
  });

  it("pause and cancel fired together in flight end cancelled whichever lands first", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(4, { holdAt: 1 }) });
    const d = driver(runId);
    await barrier.arrived();
    const outcomes = await Promise.all([control(agent, runId, "pause"), control(agent, runId, "cancel")]);
    barrier.release();
    await d.settle();
    const { rec, moves } = await expectConsistent(runId, "pause+cancel");
    expect(rec.status).toBe("cancelled");
    expect(outcomes[1]).toBe("ok"); // cancel is allowed from running and from paused
    expect([
      ["start", "cancel"],
      ["start", "pause", "cancel"],
    ]).toContainEqual(moves);
  });

  it("a run cancelled while pending is never started by its engine", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(3) });
    expect(await control(agent, runId, "cancel")).toBe("ok");
    await runEngine({ runId, epoch: 0, baseUrl: BASE });
    const { rec, moves } = await expectConsistent(runId, "cancel pending");
    expect(rec.status).toBe("cancelled");
    expect(moves).toEqual(["cancel"]);
    expect(rec.item_counts.total).toBe(0);
  });

  it("a review item ends the run needs_review; resolving it resumes the run to completed", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(4, { reviewAt: 1 }) });
    const d = driver(runId);
    await d.settle();
    expect((await expectConsistent(runId, "review")).rec.status).toBe("needs_review");
    const [approval] = await listApprovals({ agent, runId });
    const d2 = driver(runId);
    await resolveApproval({
      agent,
      runId,
      exceptionId: approval!.exception_id,
      resolution: "approved",
      actor,
      baseUrl: BASE,
    });
    await d2.settle();
    const { rec, moves } = await expectConsistent(runId, "approved");
    expect(rec.status).toBe("completed");
    expect(moves).toEqual(["start", "finish", "resume", "finish"]);
  });

  it("a fatal item fails the run; retry runs it again from the failed step, keeping completed items", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(4, { failAt: 2 }) });
    const d = driver(runId);
    await d.settle();
    expect((await expectConsistent(runId, "fatal")).rec.status).toBe("failed");
    const d2 = driver(runId);
    expect(await control(agent, runId, "retry")).toBe("ok");
    await d2.settle();
    const { rec, moves } = await expectConsistent(runId, "retried");
    expect(rec.status).toBe("failed"); // the same item fails again: its data did not change
    expect(moves).toEqual(["start", "fail", "retry", "start", "fail"]);
    expect(rec.item_counts).toEqual({ completed: 2, failed: 1, needs_review: 0, total: 4 });
  });

  it("pause racing the engine's own finish ends paused or completed, never both", async () => {
    const { agent, key } = await workflowAgent(WORKFLOW());
    const runId = await startRun(agent, key, { rows: rows(2, { holdAt: 1 }) });
    const d = driver(runId);
    await barrier.arrived();
    const paused = control(agent, runId, "pause");
    barrier.release();
    const outcome = await paused;
    await d.settle();
    const { rec, moves } = await expectConsistent(runId, "pause vs finish");
    // Whichever transaction locks the run first wins; the other is refused or finds nothing to do.
    if (outcome === "ok") expect(rec.status).toBe("paused");
    else expect(rec.status).toBe("completed");
    expect(moves).toEqual(outcome === "ok" ? ["start", "pause"] : ["start", "finish"]);
  });
});

/** Seeded PRNG so that a failing interleaving can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("controls racing the engine, seeded random schedules", () => {
  it("always end in one legal state with a valid audit path and exact counts", async () => {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" }, fail_at: { type: "integer" } },
      items: { from: "rows" },
      steps: [
        { id: "pace", type: "wait", ms: 3 },
        { id: "boom", type: "fail", when: "item.n = inputs.fail_at", fatal: true },
        { id: "look", type: "review", when: "item.n = 7" },
      ],
    });
    for (let it = 0; it < 12; it++) {
      const seed = 1000 + it;
      const random = rng(seed);
      const runId = await startRun(agent, key, {
        rows: Array.from({ length: 12 }, (_, n) => ({ n })),
        fail_at: random() < 0.4 ? 10 : -1,
      });
      const d = driver(runId);
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          await sleep(Math.floor(random() * 60));
          await control(agent, runId, CONTROL_ACTIONS[Math.floor(random() * 4)]!);
        }),
      );
      await d.settle();
      const { rec } = await expectConsistent(runId, `seed ${seed}`);
      expect(["completed", "failed", "needs_review", "cancelled", "paused"], `seed ${seed}`).toContain(rec.status);
    }
  }, 240_000);
});
