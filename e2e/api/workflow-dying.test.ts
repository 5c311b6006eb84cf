// A run whose engine pass keeps dying is never taken up forever: here the server is
// SIGKILLed every time the pass reaches the run's item, as a pass that crashes its process would
// be. With QUEUE_RETRY_LIMIT=1 the job gets its first attempt and one retry, each taken up again by
// the restarted server once the dead attempt's heartbeat lapsed; after the second death the run
// ends `failed` with a readable error, and no third attempt ever reaches the item. The upstream
// holds every call, so "the pass is on the item" is a fact when the server is killed.
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

describe("a run whose pass dies on every attempt", () => {
  it(
    "ends failed with a readable error after the retry limit, never taken up again",
    { timeout: 400_000 },
    async () => {
      let calls = 0;
      upstream = http.createServer((req) => {
        req.resume();
        req.on("end", () => calls++); // never answered
      });
      await new Promise<void>((r) => upstream!.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/step`;

      own = await ownServer("wf-dying", {
        QUEUE_RETRY_LIMIT: "1",
        // The shortest heartbeat (10 s): a killed attempt is retried, or failed for good, after that.
        QUEUE_HEARTBEAT_SECONDS: "10",
        QUEUE_SUPERVISE_SECONDS: "1",
      });
      const o = own;
      const key = await o.mintKey();
      const agent = await o.createAgent({
        name: "dying",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [{ id: "send", type: "http", url, timeout_ms: 600_000 }],
        },
      });
      const started = await o.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { rows: [{ n: 0 }] } });
      expect(started.status).toBe(202);
      const runPath = `/api/agents/${agent}/runs/${started.body.run_id}`;
      const run = async () => (await o.call("GET", runPath, { auth: key })).body;

      // Every attempt that reaches the item dies with its process.
      const deadline = Date.now() + 300_000;
      let deaths = 0;
      let latest = await run();
      while (latest.status !== "failed" && Date.now() < deadline) {
        if (calls > deaths) {
          deaths = calls;
          await o.restart("SIGKILL");
        } else await sleep(200);
        latest = await run();
      }
      expect(latest.status).toBe("failed");
      expect(latest.error).toBe(ORPHANED_ERROR);
      expect(latest.item_counts).toEqual({ completed: 0, failed: 0, needs_review: 0, total: 1 });
      expect(latest.events.at(-1)).toMatchObject({ action: "fail", from: "running", to: "failed", actor: "system" });
      // The first attempt and its one retry, each killed on the item; none after.
      expect(calls).toBe(2);
      await sleep(3_000);
      expect(calls).toBe(2);
    },
  );
});
