// The hot public routes served in front of Next's router (server.ts, lib/server/fast-routes.ts) answer
// exactly as Next does: one list of requests (success and each error class) is sent to the same
// server and data with FAST_ROUTES on, then, restarted, with it off; status, headers (but the date,
// the request id and the rate limit's counters) and bodies (ids and times made by the request
// aside) must be equal. And the two paths share one copy of the service's state: a revocation made
// through a Next route is honoured at once by the hot route, and a long poll on the hot route is
// woken by a change made through a Next route.
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { ownServer, type OwnServer } from "./server";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through node:http, so that framing headers (Transfer-Encoding, Content-Length) are seen. */
function request(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        let bytes = Buffer.concat(chunks);
        if (res.headers["content-encoding"] === "gzip") bytes = gunzipSync(bytes);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** What may differ between two answers to the same request: its date, its id, the seconds left of a
 * rate-limit window, and what it made. */
const IGNORED_HEADERS = new Set([
  "date",
  "x-request-id",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "location",
]);
function normalize(r: Raw) {
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = IGNORED_HEADERS.has(k) ? "(varies)" : v;
  const body = r.body
    .replace(/\b(req|sess|msg|run)_[0-9A-Za-z]{10,}/g, "$1_(id)")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "(time)")
    .replace(/"processing_time":[\d.e-]+/g, '"processing_time":(n)')
    .replace(/"retry_after_seconds":\d+/g, '"retry_after_seconds":(n)')
    .replace(/retry after \d+ s/g, "retry after (n) s");
  return { status: r.status, headers, body };
}

interface Fixture {
  key: string;
  readOnlyKey: string;
  /** A key limited to one request a minute, minted for each run. */
  limitedKey: string;
  echo: string;
  workflow: string;
  sessionId: string;
  messageId: string;
  runId: string;
}

type Case = [string, (f: Fixture) => { method: string; path: string; headers?: Record<string, string>; body?: string }];

const json = { "content-type": "application/json" };
const CASES: Case[] = [
  [
    "GET message 200",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET message, gzip",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}?x=1`,
      headers: { authorization: `Bearer ${f.key}`, "accept-encoding": "gzip" },
    }),
  ],
  [
    "GET message, Prefer: wait on a completed reply",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.key}`, prefer: "wait=45" },
    }),
  ],
  [
    "GET message, escaped ids",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${encodeURIComponent(f.sessionId).replace("s", "%73")}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET message 404",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/msg_nosuchmessage000000000`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET message 400 (NUL in the path)",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/msg_%00`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET message 401 (no key)",
    (f) => ({ method: "GET", path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}` }),
  ],
  [
    "GET message 401 (a user token)",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: "Bearer ut_0123456789abcdef" },
    }),
  ],
  [
    "GET message 403",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.readOnlyKey}` },
    }),
  ],
  [
    "GET message 429",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.limitedKey}` },
    }),
  ],
  [
    "HEAD message (Next's)",
    (f) => ({
      method: "HEAD",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "PUT message 405 (Next's)",
    (f) => ({
      method: "PUT",
      path: `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET run 200",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.workflow}/runs/${f.runId}`,
      headers: { authorization: `Bearer ${f.key}`, host: "links.example.com:8080" },
    }),
  ],
  [
    "GET run 200, gzip",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.workflow}/runs/${f.runId}/`,
      headers: { authorization: `Bearer ${f.key}`, "accept-encoding": "gzip, deflate" },
    }),
  ],
  [
    "GET run 404",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.workflow}/runs/run_nosuchrun0000000000`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "GET run of a conversational agent",
    (f) => ({
      method: "GET",
      path: `/api/agents/${f.echo}/runs/${f.runId}`,
      headers: { authorization: `Bearer ${f.key}` },
    }),
  ],
  [
    "POST trigger, respond-async 202",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json, prefer: "respond-async" },
      body: JSON.stringify({ message: "later" }),
    }),
  ],
  [
    "POST trigger, sync 200",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: JSON.stringify({ message: "now" }),
    }),
  ],
  [
    "POST trigger, event stream",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json, accept: "text/event-stream" },
      body: JSON.stringify({ message: "stream" }),
    }),
  ],
  [
    "POST trigger, workflow 202",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.workflow}`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: JSON.stringify({ rows: [{ n: 1 }] }),
    }),
  ],
  [
    "POST trigger 400 (bad JSON)",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: "{nope",
    }),
  ],
  [
    "POST trigger 400 (invalid body)",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: JSON.stringify({ message: 42 }),
    }),
  ],
  [
    "POST trigger 415",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, "content-type": "text/plain" },
      body: "hello",
    }),
  ],
  [
    "POST trigger 413",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: JSON.stringify({ message: "x".repeat(1024 * 1024 + 10) }),
    }),
  ],
  [
    "POST trigger 413, chunked (no declared length: refused while reading)",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json, prefer: "respond-async", "transfer-encoding": "chunked" },
      body: JSON.stringify({ message: "x".repeat(2 * 1024 * 1024) }),
    }),
  ],
  [
    "POST trigger, chunked 202",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/${f.echo}`,
      headers: { authorization: `Bearer ${f.key}`, ...json, prefer: "respond-async", "transfer-encoding": "chunked" },
      body: JSON.stringify({ message: "chunked" }),
    }),
  ],
  [
    "POST trigger 404 (no such agent)",
    (f) => ({
      method: "POST",
      path: `/api/agents/webhook/agt_nosuchagent000000000`,
      headers: { authorization: `Bearer ${f.key}`, ...json },
      body: "{}",
    }),
  ],
  ["POST trigger 401", (f) => ({ method: "POST", path: `/api/agents/webhook/${f.echo}`, headers: json, body: "{}" })],
  [
    "GET trigger 405 (Next's)",
    (f) => ({ method: "GET", path: `/api/agents/webhook/${f.echo}`, headers: { authorization: `Bearer ${f.key}` } }),
  ],
];

describe("hot routes in front of Next's router", () => {
  let own: OwnServer;
  const base = {} as Omit<Fixture, "limitedKey">;

  beforeAll(async () => {
    // A long key cache: a revocation can only be seen at once if both paths share it.
    own = await ownServer("fast", { KEY_CACHE_TTL_MS: "30000" });
    base.key = await own.mintKey();
    base.readOnlyKey = await own.mintKey([]);
    base.echo = await own.createAgent(ECHO_AGENT);
    base.workflow = await own.createAgent(SIMPLE_WORKFLOW);
    const sync = await own.call("POST", `/api/agents/webhook/${base.echo}`, {
      auth: base.key,
      body: { message: "hello" },
    });
    expect(sync.status).toBe(200);
    base.sessionId = sync.body.session_id;
    base.messageId = sync.body.message_id;
    const run = await own.call("POST", `/api/agents/webhook/${base.workflow}`, {
      auth: base.key,
      body: { rows: [{ n: 1 }, { n: 2 }] },
    });
    expect(run.status).toBe(202);
    base.runId = run.body.run_id;
    for (let i = 0; i < 300; i++) {
      const r = await own.call("GET", `/api/agents/${base.workflow}/runs/${base.runId}`, {
        auth: base.key,
        headers: { prefer: "wait=5" },
      });
      if (r.body.status === "completed") break;
    }
  });

  afterAll(async () => {
    await own?.dispose();
  });

  /** Every case once against the running server; a fresh one-a-minute key spent first for the 429. */
  async function runCases(): Promise<Record<string, ReturnType<typeof normalize>>> {
    const minted = await own.call("POST", `/api/v1/organizations/${own.org.organization_id}/access-keys`, {
      auth: own.org.user_token,
      body: { name: "limited", permissions: ["agents:invoke"], rate_limit_per_minute: 1 },
    });
    expect(minted.status).toBe(201);
    const f: Fixture = { ...base, limitedKey: minted.body.key };
    const spent = await own.call("GET", `/api/agents/${f.echo}/sessions/${f.sessionId}/messages/${f.messageId}`, {
      auth: f.limitedKey,
    });
    expect(spent.status).toBe(200);
    const out: Record<string, ReturnType<typeof normalize>> = {};
    for (const [name, make] of CASES) {
      const r = make(f);
      out[name] = normalize(await request(own.server.baseUrl, r.method, r.path, r.headers, r.body));
    }
    return out;
  }

  it("answers every case as Next does (status, headers, body)", async () => {
    const fast = await runCases();
    await own.restart("SIGTERM", { FAST_ROUTES: "0" });
    const viaNext = await runCases();
    await own.restart("SIGTERM");
    for (const [name] of CASES) expect(fast[name], name).toEqual(viaNext[name]);
    // The list covers what it says it does.
    const statuses = new Set(Object.values(fast).map((r) => r.status));
    for (const s of [200, 202, 400, 401, 403, 404, 405, 413, 415, 429]) expect(statuses, String(s)).toContain(s);
    expect(fast["GET message, gzip"]!.headers["content-encoding"]).toBe("gzip");
    expect(fast["POST trigger, event stream"]!.headers["content-type"]).toMatch(/^text\/event-stream/);
  });

  it("a client that goes away in the middle of its body costs nothing: the connection's next caller is answered", async () => {
    const url = new URL(own.server.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /api/agents/webhook/${base.echo} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${base.key}\r\n` +
        `Content-Type: application/json\r\nPrefer: respond-async\r\nContent-Length: 1000\r\n\r\n{"message": "cut`,
    );
    // The server has the headers and part of the body: the route is reading it when the client goes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const after = await own.call("POST", `/api/agents/webhook/${base.echo}`, {
      auth: base.key,
      headers: { prefer: "respond-async" },
      body: { message: "next" },
    });
    expect(after.status).toBe(202);
    // Logged as the client's abort (nginx's 499), not as a fault of the service. The log reaches
    // its file through this process's pipe: read until the line is there (or 10 s have passed).
    const triggerLines = () =>
      readFileSync(own.server.logFile, "utf8")
        .split("\n")
        .filter((l) => l.includes(`"path":"/api/agents/webhook/${base.echo}"`));
    const aborted = (l: string) => l.includes('"status":499') && l.includes('"client_aborted":true');
    for (let i = 0; i < 200 && !triggerLines().some(aborted); i++) await new Promise((r) => setTimeout(r, 50));
    expect(triggerLines().some(aborted)).toBe(true);
    expect(triggerLines().filter((l) => l.includes('"status":500'))).toEqual([]);
  });

  it("shares the service's state with Next's routes: a revocation is honoured at once", async () => {
    const minted = await own.call("POST", `/api/v1/organizations/${own.org.organization_id}/access-keys`, {
      auth: own.org.user_token,
      body: { name: "to revoke", permissions: ["agents:invoke"] },
    });
    const path = `/api/agents/${base.echo}/sessions/${base.sessionId}/messages/${base.messageId}`;
    expect((await own.call("GET", path, { auth: minted.body.key })).status).toBe(200); // cached now (30 s)
    const revoked = await own.call(
      "DELETE",
      `/api/v1/organizations/${own.org.organization_id}/access-keys/${minted.body.key_id}`,
      { auth: own.org.user_token },
    );
    expect(revoked.status).toBe(200);
    const after = await own.call("GET", path, { auth: minted.body.key });
    expect(after.status).toBe(401);
  });

  it("shares the service's state with Next's routes: a long poll is woken by a change made there", async () => {
    const blocker = await own.createAgent({
      name: "blocker",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: { inputs: {}, steps: [{ id: "hold", type: "wait", ms: 120_000 }] },
    });
    const started = await own.call("POST", `/api/agents/webhook/${blocker}`, { auth: base.key, body: {} });
    expect(started.status).toBe(202);
    const runPath = `/api/agents/${blocker}/runs/${started.body.run_id}`;
    for (let i = 0; i < 300; i++) {
      const r = await own.call("GET", runPath, { auth: base.key, headers: { prefer: "wait=5" } });
      if (r.body.status === "running") break;
    }
    const poll = own.call("GET", runPath, { auth: base.key, headers: { prefer: "wait=30" } });
    const cancel = await own.call("POST", `${runPath}/cancel`, { auth: base.key });
    expect(cancel.status).toBe(200);
    const woken = await poll;
    expect(woken.status).toBe(200);
    expect(woken.headers.get("preference-applied")).toBe("wait=30");
    expect(["cancelling", "cancelled"]).toContain(woken.body.status);
  });
});
