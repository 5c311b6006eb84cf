// Property test of the run state machine under races: controls fired concurrently at a run whose
// engine (one per epoch, as the queue would start them) is working and finishing at the same time.
// Whatever the interleaving, the run ends in one legal state, its audit trail is a valid path of
// SPEC 3.1 and engine moves, and its counters equal its item rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiError } from "../errors";
import { stopQueue } from "../queue";
import { openTestDatabase } from "../testing/db";
import { runEngine } from "../workflow/engine";
import { startRun, workflowAgent } from "../workflow/testing";
import { recordOf, controlRun } from "./service";
import { ALLOWED_FROM, CONTROL_ACTIONS, ENGINE_MOVES, type ControlAction } from "./state";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

const CONTROL_TARGET: Record<ControlAction, string> = {
  pause: "paused",
  resume: "running",
  cancel: "cancelled",
  retry: "pending",
};

function legal(e: { action: string; from: string | null; to: string }): boolean {
  if (e.action === "trigger") return e.from === null && e.to === "pending";
  if ((CONTROL_ACTIONS as readonly string[]).includes(e.action)) {
    const a = e.action as ControlAction;
    return (ALLOWED_FROM[a] as readonly string[]).includes(e.from ?? "") && e.to === CONTROL_TARGET[a];
  }
  const move = ENGINE_MOVES[e.action];
  return (
    !!move && (move.from as readonly string[]).includes(e.from ?? "") && (move.to as readonly string[]).includes(e.to)
  );
}

describe("run state machine under concurrent controls", () => {
  it("always ends in one legal state with a valid audit path and exact counts", async () => {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" }, fail_at: { type: "integer" } },
      items: { from: "rows" },
      steps: [
        { id: "pace", type: "wait", ms: 3 },
        { id: "boom", type: "fail", when: "item.n = inputs.fail_at", fatal: true },
        { id: "look", type: "review", when: "item.n = 7" },
      ],
    });
    const actor = { type: "access_key" as const, id: "key_x", label: "race key" };
    const iterations = 12;
    const finals = new Set<string>();
    let applied = 0;
    for (let it = 0; it < iterations; it++) {
      const random = rng(1000 + it);
      const runId = await startRun(agent, key, {
        rows: Array.from({ length: 12 }, (_, n) => ({ n })),
        fail_at: random() < 0.4 ? 10 : -1,
      });

      // Engines, one per epoch, started as the queue would (a new epoch may start before the old
      // engine has noticed it is stale).
      const started = new Set<number>();
      const engines: Promise<void>[] = [];
      let controlsDone = false;
      const driver = (async () => {
        for (;;) {
          const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
          if ((run.status === "pending" || run.status === "running") && !started.has(run.epoch)) {
            started.add(run.epoch);
            engines.push(runEngine({ runId, epoch: run.epoch, baseUrl: "http://localhost" }));
          }
          if (controlsDone && !["pending", "running"].includes(run.status)) break;
          await sleep(2);
        }
        await Promise.all(engines);
      })();

      const outcomes = await Promise.all(
        Array.from({ length: 10 }, async () => {
          await sleep(Math.floor(random() * 60));
          const action = CONTROL_ACTIONS[Math.floor(random() * 4)]!;
          try {
            await controlRun({ agent, runId, action, actor, triggeredBy: `race-${it}`, baseUrl: "http://localhost" });
            return "ok";
          } catch (e) {
            if (isApiError(e) && e.code === "invalid_state_transition") return "refused";
            throw e;
          }
        }),
      );
      controlsDone = true;
      // A run left running/pending by the controls is finished by its engine; stop it there.
      await driver;

      const rec = await recordOf(runId, "http://localhost");
      expect(["completed", "failed", "needs_review", "cancelled", "paused"]).toContain(rec.status);
      finals.add(rec.status);
      applied += outcomes.filter((o) => o === "ok").length;

      const events = rec.events;
      expect(events[0]).toMatchObject({ action: "trigger", from: null, to: "pending" });
      for (let i = 0; i < events.length; i++) {
        expect(legal(events[i]!), `event ${i} ${JSON.stringify(events[i])} (seed ${1000 + it})`).toBe(true);
        if (i > 0) expect(events[i]!.from, `path broken at ${i} (seed ${1000 + it})`).toBe(events[i - 1]!.to);
      }
      expect(events[events.length - 1]!.to).toBe(rec.status);

      const rows = await db.prisma.runItem.groupBy({ by: ["status"], where: { runId }, _count: true });
      const count = (s: string) => rows.find((r) => r.status === s)?._count ?? 0;
      expect(rec.item_counts).toEqual({
        completed: count("completed") + count("skipped"),
        failed: count("failed"),
        needs_review: count("needs_review"),
        total: rows.reduce((n, r) => n + r._count, 0),
      });
      expect(rec.summary.total_processed).toBe(count("completed") + count("failed") + count("needs_review"));
    }
    // The interleavings really varied: controls applied, and runs ended in different states.
    expect(applied).toBeGreaterThan(iterations);
    expect(finals.size).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
