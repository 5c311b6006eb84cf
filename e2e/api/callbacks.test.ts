// Completion callbacks (docs/api.md "Completion callbacks") through a real server and a local
// receiver: signed with the organization's secret (verified with the standardwebhooks package),
// the payload's data equal to GET message / GET run, the agent's default URL, retries until a 2xx,
// redelivery with the same webhook-id, run events, an invalid URL refused at trigger time, and a
// refused address (link-local metadata) failed at once without a request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { ownServer, type OwnServer } from "./server";

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let own: OwnServer;
let key: string;
let cookie: string;
let receiver: http.Server;
let base: string;
const received: Received[] = [];
/** Per path: the statuses to answer, in order (then 200). */
const script = new Map<string, number[]>();

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
      const status = script.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "thanks" : "try later");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Small retry settings so that three attempts take a fraction of a second (loopback is allowed
  // for the suites' fake upstreams: LOCAL_UPSTREAMS_ENV).
  own = await ownServer("callbacks", {
    CALLBACK_RETRY_BASE_MS: "50",
    CALLBACK_MAX_ATTEMPTS: "3",
    CALLBACK_TIMEOUT_MS: "5000",
  });
  key = await own.mintKey();
  const signIn = await fetch(`${own.server.baseUrl}/api/console/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: own.server.baseUrl },
    body: JSON.stringify({ email: "callbacks@example.com", password: "correct horse battery" }),
  });
  expect(signIn.status).toBe(200);
  cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await own?.dispose();
});

/** A path of the organization API in this server's organization. */
const ownPath = (path: string) => `/api/v1/organizations/${own.org.organization_id}${path}`;
const consoleCall = (method: string, path: string) =>
  own.call(method, path, { headers: { cookie, origin: own.server.baseUrl } });

/** Waits (bounded) until `check` returns a value. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const at = (path: string) => received.filter((r) => r.path === path);

/** The one delivery whose subject is `subjectId` (and event), once it is no longer pending. */
async function settled(subjectId: string, event?: string) {
  return until(`delivery of ${subjectId}`, async () => {
    const list = await consoleCall("GET", ownPath("/deliveries?limit=100"));
    const d = list.body.deliveries.find(
      (x: { subject_id: string; event: string; status: string }) =>
        x.subject_id === subjectId && (!event || x.event === event),
    );
    return d && d.status !== "pending" ? d : undefined;
  });
}

let secret: string;

describe("completion callbacks", () => {
  it("signs a message.completed callback whose data equals GET message", async () => {
    const rotated = await own.call("POST", `/api/v1/organizations/${own.org.organization_id}/webhook-secret`, {
      headers: { cookie, origin: own.server.baseUrl },
    });
    expect(rotated.status).toBe(201);
    secret = rotated.body.secret;
    expect(secret).toMatch(/^whsec_/);
    const info = await consoleCall("GET", `/api/v1/organizations/${own.org.organization_id}/webhook-secret`);
    expect(info.body).toMatchObject({ configured: true, hint: secret.slice(-4) });

    const agent = await own.createAgent(ECHO_AGENT);
    const res = await own.call("POST", `/api/agents/webhook/${agent}`, {
      auth: key,
      headers: { prefer: "respond-async" },
      body: { message: "call me back", callback_url: `${base}/msg` },
    });
    expect(res.status).toBe(202);
    const hit = await until("the callback", () => at("/msg")[0]);
    const payload = new Webhook(secret).verify(hit.body, hit.headers) as { type: string; data: unknown };
    expect(payload.type).toBe("message.completed");
    const message = await own.call(
      "GET",
      `/api/agents/${agent}/sessions/${res.body.session_id}/messages/${res.body.message_id}`,
      { auth: key },
    );
    expect(payload.data).toEqual(message.body);
    const d = await settled(res.body.message_id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200, event: "message.completed" });
    expect(hit.headers["webhook-id"]).toBe(d.id);
    expect(at("/msg")).toHaveLength(1);
  });

  it("uses the agent's default URL, retries a 500 until a 200, lists the attempts, and redelivers with the same id", async () => {
    script.set("/default", [500, 500]);
    const agent = await own.createAgent({
      name: "echo default",
      kind: "conversational",
      runtime: { type: "echo" },
      callback_url: `${base}/default`,
    });
    const res = await own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: "hi" } });
    expect(res.status).toBe(200);
    const d = await settled(res.body.message_id);
    expect(d).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200 });
    const detail = await consoleCall("GET", ownPath(`/deliveries/${d.id}`));
    expect(detail.body.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    expect(detail.body.attempts[0]).toMatchObject({ number: 1, error: "HTTP 500", response_body: "try later" });
    expect(detail.body.request.headers["webhook-id"]).toBe(d.id);
    expect(detail.body.request.body).toBe(at("/default")[2]!.body);
    const ids = at("/default").map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set([d.id]));

    const again = await own.call("POST", ownPath(`/deliveries/${d.id}/redeliver`), {
      headers: { cookie, origin: own.server.baseUrl },
    });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: d.id, status: "pending" });
    const fourth = await until("the redelivery", () => at("/default")[3]);
    expect(fourth.headers["webhook-id"]).toBe(d.id);
    expect(fourth.body).toBe(at("/default")[0]!.body);
    expect(new Webhook(secret).verify(fourth.body, fourth.headers)).toBeTruthy();
    const redelivered = await until("delivered again", async () => {
      const x = await consoleCall("GET", ownPath(`/deliveries/${d.id}`));
      return x.body.status === "delivered" && x.body.attempts.length === 4 ? x.body : undefined;
    });
    expect(redelivered.attempts[3]).toMatchObject({ number: 4, status_code: 200 });
  });

  it("sends run.completed with GET run's object, and run.cancelled for a cancelled run", async () => {
    const wf = await own.createAgent(SIMPLE_WORKFLOW);
    const done = await own.call("POST", `/api/workflows/${wf}/trigger`, {
      auth: key,
      body: { payload: { rows: [{ a: 1 }] }, callback_url: `${base}/run` },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(202);
    const runId = done.body.run_id;
    const hit = await until("run.completed", () => at("/run").find((r) => JSON.parse(r.body).type === "run.completed"));
    const payload = new Webhook(secret).verify(hit.body, hit.headers) as { data: { run_id: string; status: string } };
    expect(payload.data).toMatchObject({ run_id: runId, status: "completed" });
    const run = await own.call("GET", `/api/agents/${wf}/runs/${runId}`, { auth: key });
    expect(payload.data).toEqual(run.body);

    const slow = await own.createAgent({
      name: "wf slow",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true } },
        items: { from: "rows" },
        steps: [{ id: "w", type: "wait", ms: 600_000 }],
      },
    });
    const started = await own.call("POST", `/api/agents/webhook/${slow}`, {
      auth: key,
      body: { rows: [{ a: 1 }], callback_url: `${base}/cancel` },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const cancelled = await own.call("POST", `/api/agents/${slow}/runs/${started.body.run_id}/cancel`, { auth: key });
    expect(cancelled.status).toBe(200);
    const hit2 = await until("run.cancelled", () => at("/cancel")[0]);
    expect(JSON.parse(hit2.body)).toMatchObject({ type: "run.cancelled", data: { status: "cancelled" } });
  });

  it("refuses an invalid callback_url with 400 invalid_callback_url", async () => {
    const agent = await own.createAgent({ name: "echo bad", kind: "conversational", runtime: { type: "echo" } });
    for (const bad of [
      "ftp://example.com/x",
      "https://user:pw@example.com/x",
      "not a url",
      `https://e.com/${"a".repeat(2048)}`,
    ]) {
      const res = await own.call("POST", `/api/agents/webhook/${agent}`, {
        auth: key,
        body: { message: "hi", callback_url: bad },
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe("invalid_callback_url");
    }
    const mgmt = await own.call("PATCH", `/api/v1/organizations/${own.org.organization_id}/agents/${agent}`, {
      auth: own.org.user_token,
      body: { callback_url: "javascript:alert(1)" },
    });
    expect(mgmt.status).toBe(400);
    expect(mgmt.body.error.code).toBe("invalid_callback_url");
  });

  it("fails a delivery to a refused address at once, with the guard's error and no request", async () => {
    const before = received.length;
    const agent = await own.createAgent({ name: "echo meta", kind: "conversational", runtime: { type: "echo" } });
    const res = await own.call("POST", `/api/agents/webhook/${agent}`, {
      auth: key,
      body: { message: "hi", callback_url: "http://169.254.169.254/latest/meta-data" },
    });
    expect(res.status).toBe(200);
    const d = await settled(res.body.message_id);
    expect(d).toMatchObject({ status: "failed", attempts: 1, last_status_code: null });
    const detail = await consoleCall("GET", ownPath(`/deliveries/${d.id}`));
    expect(detail.body.attempts[0].error).toMatch(/refused: .*169\.254\.169\.254.*always refused/);
    expect(received.length).toBe(before);
  });
});
