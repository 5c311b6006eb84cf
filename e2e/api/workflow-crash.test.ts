// Crash safety of workflow runs: the server is SIGKILLed in the middle of a run
// and started again on the same data. The run continues where it was: items finished before the
// kill are not processed again, no item is counted twice (counts equal the item totals exactly),
// and a paused or a cancelled run stays so. Runs its own server (the shared one must not be killed).
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "./server";

// Enough items that the main run is still running when the server is killed, however slow the machine.
const ITEMS = 300;
let own: OwnServer | undefined;
afterAll(() => own?.dispose());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("kill and restart in the middle of a run", () => {
  it(
    "continues the run without processing or counting any item twice; paused and cancelled runs stay so",
    { timeout: 400_000 },
    async () => {
      own = await ownServer("wf-crash", {
        // The shortest heartbeat (10 s): a killed worker's job is retried after that.
        QUEUE_HEARTBEAT_SECONDS: "10",
        QUEUE_SUPERVISE_SECONDS: "1",
      });
      const o = own;
      const api = (auth: string, method: string, p: string, body?: unknown) => o.call(method, p, { auth, body });
      const key = await o.mintKey();
      const agent = await o.createAgent({
        name: "paced",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [
            // When the item was processed: an item processed again after the restart gets a later stamp.
            { id: "stamp", type: "transform", expression: "$merge([item, {'at': $millis()}])" },
            { id: "pace", type: "wait", ms: 60 },
          ],
          output: { filename: "stamps.jsonl", format: "jsonl" },
        },
      });
      const run = async (id: string) => (await api(key, "GET", `/api/agents/${agent}/runs/${id}`)).body;
      const trigger = async () =>
        (
          await api(key, "POST", `/api/agents/webhook/${agent}`, {
            rows: Array.from({ length: ITEMS }, (_, n) => ({ n })),
          })
        ).body.run_id as string;

      const [main, toPause, toCancel] = [await trigger(), await trigger(), await trigger()];
      for (;;) {
        const [a, b, c] = await Promise.all([run(main), run(toPause), run(toCancel)]);
        if (a.item_counts.completed >= 10 && b.item_counts.completed >= 3 && c.item_counts.completed >= 3) break;
        await sleep(50);
      }
      const pauseAnswer = await api(key, "POST", `/api/agents/${agent}/runs/${toPause}/pause`);
      const cancelAnswer = await api(key, "POST", `/api/agents/${agent}/runs/${toCancel}/cancel`);
      expect([pauseAnswer.status, cancelAnswer.status]).toEqual([200, 200]);
      await sleep(500);
      const pausedBefore = await run(toPause);
      const cancelledBefore = await run(toCancel);
      const mainBefore = await run(main);
      expect(mainBefore.status).toBe("running");
      expect(mainBefore.item_counts.completed).toBeLessThan(ITEMS);
      const killedAt = Date.now();
      await o.restart("SIGKILL");

      const deadline = Date.now() + 120_000;
      let done = await run(main);
      while (done.status !== "completed" && Date.now() < deadline) {
        await sleep(250);
        done = await run(main);
      }
      expect(done.status).toBe("completed");
      expect(done.item_counts).toEqual({ completed: ITEMS, failed: 0, needs_review: 0, total: ITEMS });
      expect(done.summary).toEqual({ total_processed: ITEMS, successful: ITEMS, failed: 0, exceptions: 0, skipped: 0 });
      expect(done.progress_percent).toBe(100);

      // Items counted before the kill kept their result: they were not processed again.
      const lines = (await (await fetch(done.output_files[0].url)).text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { index: number; result: { n: number; at: number } });
      expect(lines.map((l) => l.index)).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
      const finishedBeforeKill = lines.filter((l) => l.result.at < killedAt).length;
      expect(finishedBeforeKill).toBeGreaterThanOrEqual(mainBefore.item_counts.completed);
      for (const l of lines.slice(0, mainBefore.item_counts.completed)) expect(l.result.at).toBeLessThan(killedAt);

      // The paused run stayed paused and the cancelled one cancelled: after a control is answered at
      // most the item then in flight is counted, whether it finished before or after the kill.
      const pausedAfter = await run(toPause);
      const cancelledAfter = await run(toCancel);
      expect(pausedAfter.status).toBe("paused");
      expect(cancelledAfter.status).toBe("cancelled");
      for (const [answer, before, after] of [
        [pauseAnswer.body, pausedBefore, pausedAfter],
        [cancelAnswer.body, cancelledBefore, cancelledAfter],
      ]) {
        expect(after.item_counts.completed).toBeGreaterThanOrEqual(before.item_counts.completed);
        expect(after.item_counts.completed - answer.item_counts.completed).toBeGreaterThanOrEqual(0);
        expect(after.item_counts.completed - answer.item_counts.completed).toBeLessThanOrEqual(1);
        expect(after.item_counts.total).toBe(ITEMS);
      }

      // And the paused one finishes exactly once resumed.
      expect((await api(key, "POST", `/api/agents/${agent}/runs/${toPause}/resume`)).status).toBe(200);
      let resumed = await run(toPause);
      while (resumed.status !== "completed" && Date.now() < deadline) {
        await sleep(250);
        resumed = await run(toPause);
      }
      expect(resumed.item_counts).toEqual({ completed: ITEMS, failed: 0, needs_review: 0, total: ITEMS });
      expect(resumed.summary.successful).toBe(ITEMS);
    },
  );
});
