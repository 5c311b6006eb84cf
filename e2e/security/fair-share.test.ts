// Threat model rows T-SHARE-1 and T-SHARE-2 (docs/security.md): one organization cannot starve the
// others. Organization A fills the reply slots with replies that never end and the worker slots with
// long runs; organization B's synchronous trigger still answers and B's run still runs. Small caps
// make the limits visible: 4 reply slots (a share of 2 an organization, 1 kept in reserve: an
// organization alone borrows up to 3), the 4 worker slots of one process (1 pass an organization
// while others wait).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { bootstrapOrg, ownServer, startServer, type OwnServer } from "../api/server";

let own: OwnServer;
let upstream: FakeUpstream;
let orgB: { organization_id: string; user_token: string };
let keyA: string;
let keyB: string;

const SETTINGS = {
  REPLY_CONCURRENCY: "4",
  ORG_REPLY_CONCURRENCY: "2",
  ORG_REPLY_BACKLOG: "3",
  ORG_RUN_CONCURRENCY: "1",
  TRIGGER_WAIT_MS: "8000",
};

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.answer(() => "hang");
  own = await ownServer("fair-a", SETTINGS);
  keyA = await own.mintKey();
  // A second organization: the embedded database is opened here only while the server is stopped.
  await own.server.stop();
  orgB = await bootstrapOrg(own.target, "fair-b", "fair-b@example.com");
  own.server = await startServer(own.target, { SEED_DEMO: "false", ...SETTINGS }, own.server.port);
  const minted = await own.call("POST", `/api/v1/organizations/${orgB.organization_id}/access-keys`, {
    auth: orgB.user_token,
    body: { name: "b" },
  });
  keyB = minted.body.key;
});
afterAll(async () => {
  await own?.dispose();
  await upstream?.close();
});

const createAgentOf = async (org: { organization_id: string; user_token: string }, spec: unknown) => {
  const res = await own.call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
    auth: org.user_token,
    body: spec,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.agent_id as string;
};

describe("T-SHARE-1 one organization's replies cannot fill the reply slots of all", () => {
  it("B's synchronous trigger answers while A's replies hang; A's own backlog is refused, not B's", async () => {
    const slow = await createAgentOf(own.org, {
      name: "hangs",
      kind: "conversational",
      runtime: { type: "http", url: `${upstream.url}/reply`, timeout_ms: 600_000 },
    });
    const echoB = await createAgentOf(orgB, { name: "echo", kind: "conversational", runtime: { type: "echo" } });
    // A, alone: 2 replies take its share and a third borrows an idle slot (the fourth is the
    // reserve); 3 wait in A's line, the next is refused (ORG_REPLY_BACKLOG).
    upstream.requests.length = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${slow}`, {
        auth: keyA,
        body: { message: `flood ${i}` },
        headers: { prefer: "respond-async" },
      });
      statuses.push(res.status);
      if (res.status === 503) {
        expect(res.body.error.code).toBe("service_unavailable");
        expect(res.headers.get("retry-after")).toBeTruthy();
      }
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 503]);
    // Three of A's replies reach the (hanging) upstream: more than its share of 2.
    await expect.poll(() => upstream.requests.length).toBe(3);
    // The reserved slot is still free for everyone else, though A's replies never end.
    const b = await own.call("POST", `/api/agents/webhook/${echoB}`, { auth: keyB, body: { message: "hi" } });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.response).toBe("Echo: hi");
  });
});

const LONG_RUN = {
  name: "long",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "pace", type: "wait", ms: 50 }],
  },
};

async function getRun(key: string, agentId: string, runId: string) {
  const res = await own.call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key });
  expect(res.status).toBe(200);
  return { status: res.body.status as string, total_processed: res.body.summary.total_processed as number };
}

describe("T-SHARE-2 one organization's long runs cannot hold every worker slot", () => {
  it("B's run completes while A's runs hold every slot, and A's runs go on afterwards", async () => {
    const longA = await createAgentOf(own.org, LONG_RUN);
    const shortB = await createAgentOf(orgB, {
      ...LONG_RUN,
      name: "short",
      workflow: { ...LONG_RUN.workflow, steps: [{ id: "t", type: "transform", expression: "item" }] },
    });
    const rows = Array.from({ length: 4000 }, (_, i) => ({ i }));
    const runsA: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${longA}`, { auth: keyA, body: { rows } });
      expect(res.status).toBe(202);
      runsA.push(res.body.run_id);
    }
    // Every worker slot holds one of A's runs before B asks for one.
    for (let i = 0; i < 300; i++) {
      const states = await Promise.all(runsA.map((r) => getRun(keyA, longA, r)));
      if (states.filter((s) => s.status === "running" && s.total_processed > 0).length >= 4) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = await own.call("POST", `/api/agents/webhook/${shortB}`, { auth: keyB, body: { rows: [{ b: 1 }] } });
    expect(started.status).toBe(202);
    let b = await getRun(keyB, shortB, started.body.run_id);
    // 4,000 items at 50 ms: each of A's runs needs over 3 minutes. Without fair share B waits for one.
    for (let i = 0; i < 600 && b.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      b = await getRun(keyB, shortB, started.body.run_id);
    }
    expect(b.status).toBe("completed");
    const snapshot = await Promise.all(runsA.map((r) => getRun(keyA, longA, r)));
    for (const s of snapshot) expect(s.status).toBe("running");

    // A's runs, those that yielded included, all make progress afterwards.
    let later = snapshot;
    for (let i = 0; i < 600; i++) {
      later = await Promise.all(runsA.map((r) => getRun(keyA, longA, r)));
      if (later.every((s, j) => s.total_processed > snapshot[j]!.total_processed)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    later.forEach((s, j) => expect(s.total_processed, runsA[j]).toBeGreaterThan(snapshot[j]!.total_processed));
    for (const r of runsA) await own.call("POST", `/api/agents/${longA}/runs/${r}/cancel`, { auth: keyA });
  });
});
