// Durability (issue 3, item 6): the server is SIGKILLed while replies are in flight and started
// again on the same data; every accepted trigger still ends with exactly one assistant message,
// completed or error. Runs its own server (the shared one must not be killed).
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "./server";

const TRIGGERS = 20;
let own: OwnServer | undefined;
afterAll(() => own?.dispose());

describe("kill and restart with replies in flight", () => {
  it(
    "ends every accepted trigger with exactly one assistant message, completed or error",
    { timeout: 180_000 },
    async () => {
      own = await ownServer("conv-crash", {
        // pg-boss refuses heartbeats under 10 s.
        QUEUE_HEARTBEAT_SECONDS: "10",
        QUEUE_SUPERVISE_SECONDS: "1",
        // A synchronous trigger here waits at most 1 s: the bound comes from the environment.
        TRIGGER_WAIT_MS: "1000",
      });
      const o = own;
      const key = await o.mintKey();
      const agent = await o.createAgent({
        name: "slow echo",
        kind: "conversational",
        runtime: { type: "echo", delay_ms: 1500 },
      });
      const api = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
        o.call(method, p, { auth: key, body, headers });

      // The environment's TRIGGER_WAIT_MS bounds a synchronous trigger.
      const sync = await api("POST", `/api/agents/webhook/${agent}`, { message: "sync" });
      expect(sync.status).toBe(502);
      expect(sync.body.error.code).toBe("upstream_timeout");

      const accepted = await Promise.all(
        Array.from({ length: TRIGGERS }, (_, i) =>
          api("POST", `/api/agents/webhook/${agent}`, { message: `m${i}` }, { prefer: "respond-async" }),
        ),
      );
      expect(accepted.map((r) => r.status)).toEqual(Array(TRIGGERS).fill(202));
      const expected = [sync.body.error.details, ...accepted.map((r) => r.body)].map((r) => ({
        session: r.session_id as string,
        message: r.message_id as string,
      }));

      // Kill while the worker holds replies (each takes 1.5 s; 8 run at a time).
      await new Promise((r) => setTimeout(r, 700));
      const before = await api(
        "GET",
        `/api/agents/${agent}/sessions/${expected[5]!.session}/messages/${expected[5]!.message}`,
      );
      expect(before.body.status).toBe("processing");
      await o.restart("SIGKILL");

      const deadline = Date.now() + 120_000;
      let pending = expected;
      while (pending.length && Date.now() < deadline) {
        const states = await Promise.all(
          pending.map((e) => api("GET", `/api/agents/${agent}/sessions/${e.session}/messages/${e.message}`)),
        );
        pending = pending.filter((_, i) => states[i]!.body.status === "processing");
        if (pending.length) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pending).toEqual([]);

      for (const e of expected) {
        const list = await api("GET", `/api/agents/${agent}/sessions/${e.session}/messages`);
        const roles = list.body.messages.map((m: { role: string }) => m.role);
        expect(roles).toEqual(["user", "assistant"]);
        const reply = list.body.messages[1];
        expect(reply.message_id).toBe(e.message);
        expect(["completed", "error"]).toContain(reply.status);
      }
      const replies = await Promise.all(
        expected.map((e) => api("GET", `/api/agents/${agent}/sessions/${e.session}/messages/${e.message}`)),
      );
      // The echo runtime cannot fail here: every reply completes.
      expect(replies.map((r) => r.body.status)).toEqual(Array(expected.length).fill("completed"));
    },
  );
});
