// Durability: the server is SIGKILLed while replies are in flight and started
// again on the same data; every accepted trigger still ends with exactly one assistant message,
// completed or error. Runs its own server (the shared one must not be killed). The agent's upstream
// holds every reply until the test lets it answer, so "in flight at the kill" is a fact, not a
// matter of timing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "./server";

const TRIGGERS = 20;
let own: OwnServer | undefined;
let upstream: http.Server | undefined;
afterAll(async () => {
  await own?.dispose();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r) ?? r(null));
});

/** An http-runtime upstream that holds requests until `open()`, then answers every one at once. */
async function gatedUpstream() {
  let isOpen = false;
  let held: (() => void)[] = [];
  const seen = new Set<string>();
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message_id: string; message: string };
      seen.add(body.message_id);
      const answer = () => {
        if (!res.destroyed)
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ content: `ok ${body.message}` }));
      };
      if (isOpen) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/reply`,
    /** Message ids whose reply the server has asked for. */
    seen,
    open() {
      isOpen = true;
      const all = held;
      held = [];
      for (const a of all) a();
    },
  };
}

describe("kill and restart with replies in flight", () => {
  it(
    "ends every accepted trigger with exactly one assistant message, completed or error",
    { timeout: 300_000 },
    async () => {
      const gate = await gatedUpstream();
      own = await ownServer("conv-crash", {
        // Replies of the killed process are taken over once their lease (4 s) runs out.
        REPLY_LEASE_SECONDS: "4",
        // A synchronous trigger here waits at most 1 s: the bound comes from the environment.
        TRIGGER_WAIT_MS: "1000",
      });
      const o = own;
      const key = await o.mintKey();
      const agent = await o.createAgent({
        name: "gated",
        kind: "conversational",
        runtime: { type: "http", url: gate.url, timeout_ms: 120_000 },
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

      // Kill while the server holds replies: wait until several are with the upstream (held there).
      const deadline0 = Date.now() + 60_000;
      while (gate.seen.size < 5 && Date.now() < deadline0) await new Promise((r) => setTimeout(r, 100));
      expect(gate.seen.size).toBeGreaterThanOrEqual(5);
      const inFlight = expected.find((e) => gate.seen.has(e.message))!;
      const before = await api("GET", `/api/agents/${agent}/sessions/${inFlight.session}/messages/${inFlight.message}`);
      expect(before.body.status).toBe("processing");
      await o.restart("SIGKILL");
      gate.open();

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
      // The upstream answers every request once open: every reply completes, with the upstream's words.
      expect(replies.map((r) => r.body.status)).toEqual(Array(expected.length).fill("completed"));
      expect(replies.map((r) => r.body.content).sort()).toEqual(
        ["ok sync", ...Array.from({ length: TRIGGERS }, (_, i) => `ok m${i}`)].sort(),
      );
    },
  );
});
