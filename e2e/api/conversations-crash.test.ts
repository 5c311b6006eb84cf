// Durability (issue 3, item 6): the server is SIGKILLed while replies are in flight and started
// again on the same data; every accepted trigger still ends with exactly one assistant message,
// completed or error. Runs its own server (the shared one must not be killed).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFreshPostgresDatabase } from "../../lib/testing/db";
import { admin, startServer, type DbTarget, type RunningServer } from "./server";

const TRIGGERS = 20;
const tmp = mkdtempSync(path.join(os.tmpdir(), "aws-conv-crash-"));
let server: RunningServer | undefined;
let drop = async () => {};

afterAll(async () => {
  await server?.stop("SIGKILL");
  await drop();
  rmSync(tmp, { recursive: true, force: true });
});

const ENV = {
  SEED_DEMO: "false",
  // pg-boss refuses heartbeats under 10 s.
  QUEUE_HEARTBEAT_SECONDS: "10",
  QUEUE_SUPERVISE_SECONDS: "1",
  // A synchronous trigger here waits at most 1 s: the bound comes from the environment.
  TRIGGER_WAIT_MS: "1000",
};

async function api(
  base: string,
  auth: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("kill and restart with replies in flight", () => {
  it(
    "ends every accepted trigger with exactly one assistant message, completed or error",
    { timeout: 180_000 },
    async () => {
      let target: DbTarget = { dataDir: path.join(tmp, "data") };
      if (process.env.TEST_DATABASE_URL) {
        const fresh = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL);
        target = { databaseUrl: fresh.url };
        drop = fresh.drop;
      }
      const org = await admin(target, [
        "bootstrap",
        "--org",
        "Crash",
        "--email",
        "crash@example.com",
        "--password",
        "crash password",
      ]);
      server = await startServer(target, ENV);
      const base = server.baseUrl;
      const mgmt = async (p: string, body: unknown) =>
        (await api(base, org.user_token!, "POST", `/api/v1/organizations/${org.organization_id}${p}`, body)).body;
      const key: string = (await mgmt("/access-keys", { name: "crash", permissions: ["agents:invoke"] })).key;
      const agent: string = (
        await mgmt("/agents", { name: "slow echo", kind: "conversational", runtime: { type: "echo", delay_ms: 1500 } })
      ).agent_id;

      // The environment's TRIGGER_WAIT_MS bounds a synchronous trigger.
      const sync = await api(base, key, "POST", `/api/agents/webhook/${agent}`, { message: "sync" });
      expect(sync.status).toBe(502);
      expect(sync.body.error.code).toBe("upstream_timeout");

      const accepted = await Promise.all(
        Array.from({ length: TRIGGERS }, (_, i) =>
          api(base, key, "POST", `/api/agents/webhook/${agent}`, { message: `m${i}` }, { prefer: "respond-async" }),
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
        base,
        key,
        "GET",
        `/api/agents/${agent}/sessions/${expected[5]!.session}/messages/${expected[5]!.message}`,
      );
      expect(before.body.status).toBe("processing");
      await server.stop("SIGKILL");
      server = await startServer(target, ENV, server.port);

      const deadline = Date.now() + 120_000;
      let pending = expected;
      while (pending.length && Date.now() < deadline) {
        const states = await Promise.all(
          pending.map((e) =>
            api(server!.baseUrl, key, "GET", `/api/agents/${agent}/sessions/${e.session}/messages/${e.message}`),
          ),
        );
        pending = pending.filter((_, i) => states[i]!.body.status === "processing");
        if (pending.length) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pending).toEqual([]);

      for (const e of expected) {
        const list = await api(server.baseUrl, key, "GET", `/api/agents/${agent}/sessions/${e.session}/messages`);
        const roles = list.body.messages.map((m: { role: string }) => m.role);
        expect(roles).toEqual(["user", "assistant"]);
        const reply = list.body.messages[1];
        expect(reply.message_id).toBe(e.message);
        expect(["completed", "error"]).toContain(reply.status);
      }
      const replies = await Promise.all(
        expected.map((e) =>
          api(server!.baseUrl, key, "GET", `/api/agents/${agent}/sessions/${e.session}/messages/${e.message}`),
        ),
      );
      // The echo runtime cannot fail here: every reply completes.
      expect(replies.map((r) => r.body.status)).toEqual(Array(expected.length).fill("completed"));
    },
  );
});
