// Nothing stays stuck: the server is SIGKILLed while a run's job is on its last
// attempt (QUEUE_RETRY_LIMIT=0: the first attempt is the last), so pg-boss fails the job once its
// heartbeat lapses and no handler ever ends the run. The worker's sweep must end the run `failed`
// with a readable error, `retry` must continue it from its pending items, and a paused and a
// needs_review run whose jobs are gone too must be left alone. The upstream holds item 1 of every
// run until the test lets it answer, so "in flight at the kill" is a fact, not a matter of timing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ORPHANED_ERROR } from "../../lib/workflow/job";
import { ownServer, type OwnServer } from "./server";

let own: OwnServer | undefined;
let upstream: http.Server | undefined;
afterAll(async () => {
  await own?.dispose();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r) ?? r(null));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An `http` step upstream: answers item 0 and 2 at once, holds item 1 until `open()`; records each call. */
async function gatedUpstream() {
  let isOpen = false;
  let held: (() => void)[] = [];
  const calls: { run: string; item: number }[] = [];
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { run_id: string; item_index: number };
      calls.push({ run: body.run_id, item: body.item_index });
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      };
      if (isOpen || body.item_index !== 1) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/step`,
    /** The items of `run` the upstream was asked for, in order. */
    itemsOf: (run: string) => calls.filter((c) => c.run === run).map((c) => c.item),
    open() {
      isOpen = true;
      const all = held;
      held = [];
      for (const a of all) a();
    },
  };
}

describe("a run whose last attempt died with its process", () => {
  it(
    "ends failed with a readable error, retry continues it exactly; paused and needs_review runs stay so",
    { timeout: 400_000 },
    async () => {
      const gate = await gatedUpstream();
      own = await ownServer("wf-orphan", {
        QUEUE_RETRY_LIMIT: "0",
        // The shortest heartbeat (10 s): the killed job is failed for good after that.
        QUEUE_HEARTBEAT_SECONDS: "10",
        QUEUE_SUPERVISE_SECONDS: "1",
      });
      const o = own;
      const key = await o.mintKey();
      const api = (method: string, p: string, body?: unknown) => o.call(method, p, { auth: key, body });
      const gated = await o.createAgent({
        name: "gated",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [{ id: "send", type: "http", url: gate.url, timeout_ms: 600_000 }],
        },
      });
      const reviewed = await o.createAgent({
        name: "reviewed",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [{ id: "look", type: "review", when: "true" }],
        },
      });
      const rows = [{ n: 0 }, { n: 1 }, { n: 2 }];
      const start = async (agent: string) => {
        const res = await api("POST", `/api/agents/webhook/${agent}`, { rows });
        expect(res.status).toBe(202);
        return res.body.run_id as string;
      };
      const run = async (agent: string, id: string) => (await api("GET", `/api/agents/${agent}/runs/${id}`)).body;
      const until = async (agent: string, id: string, done: (r: any) => boolean) => {
        const deadline = Date.now() + 120_000;
        let r = await run(agent, id);
        while (!done(r) && Date.now() < deadline) {
          await sleep(250);
          r = await run(agent, id);
        }
        return r;
      };

      const orphan = await start(gated);
      const toPause = await start(gated);
      const review = await start(reviewed);
      // Both gated runs are inside item 1 (held by the upstream); the reviewed run has ended.
      const deadline0 = Date.now() + 60_000;
      while (Date.now() < deadline0 && !(gate.itemsOf(orphan).includes(1) && gate.itemsOf(toPause).includes(1)))
        await sleep(50);
      expect([gate.itemsOf(orphan), gate.itemsOf(toPause)]).toEqual([
        [0, 1],
        [0, 1],
      ]);
      expect((await until(reviewed, review, (r) => r.status !== "pending" && r.status !== "running")).status).toBe(
        "needs_review",
      );
      const paused = await api("POST", `/api/agents/${gated}/runs/${toPause}/pause`);
      expect([paused.status, paused.body.status]).toEqual([200, "paused"]);
      const before = await run(gated, orphan);
      expect(before.status).toBe("running");
      expect(before.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 0, total: 3 });

      await o.restart("SIGKILL");

      // Within a bounded wait (the heartbeat, then the sweep), never left running.
      const failed = await until(gated, orphan, (r) => r.status !== "running");
      expect(failed.status).toBe("failed");
      expect(failed.error).toBe(ORPHANED_ERROR);
      expect(failed.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 0, total: 3 });
      expect(failed.completed_at).not.toBeNull();
      expect(failed.events.at(-1)).toMatchObject({ action: "fail", from: "running", to: "failed", actor: "system" });
      // The sweep that failed it looked at every run: the paused and the reviewed ones were left alone.
      expect((await run(gated, toPause)).status).toBe("paused");
      expect((await run(reviewed, review)).status).toBe("needs_review");

      // Retry continues from the pending items: item 0 is not sent again, the counts are exact.
      gate.open();
      const retried = await api("POST", `/api/agents/${gated}/runs/${orphan}/retry`);
      expect([retried.status, retried.body.status, retried.body.error]).toEqual([200, "pending", null]);
      const done = await until(gated, orphan, (r) => r.status === "completed" || r.status === "failed");
      expect(done.status).toBe("completed");
      expect(done.item_counts).toEqual({ completed: 3, failed: 0, needs_review: 0, total: 3 });
      expect(done.summary).toEqual({ total_processed: 3, successful: 3, failed: 0, exceptions: 0, skipped: 0 });
      expect(gate.itemsOf(orphan)).toEqual([0, 1, 1, 2]);
      expect(
        done.events.map((e: { action: string; from: string; to: string }) => `${e.action}:${e.from}->${e.to}`),
      ).toEqual([
        "trigger:null->pending",
        "start:pending->running",
        "fail:running->failed",
        "retry:failed->pending",
        "start:pending->running",
        "finish:running->completed",
      ]);

      // The paused run, untouched by the sweep, finishes exactly once resumed.
      expect((await api("POST", `/api/agents/${gated}/runs/${toPause}/resume`)).status).toBe(200);
      const resumed = await until(gated, toPause, (r) => r.status === "completed" || r.status === "failed");
      expect(resumed.status).toBe("completed");
      expect(resumed.item_counts).toEqual({ completed: 3, failed: 0, needs_review: 0, total: 3 });
      expect(gate.itemsOf(toPause)).toEqual([0, 1, 1, 2]);
    },
  );
});
