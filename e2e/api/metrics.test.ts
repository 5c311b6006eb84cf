// GET /api/metrics (Prometheus, lib/metrics): scraped before and after requests, the counters and
// histograms move by exactly what was done, with the route pattern (never the raw URL) as the label;
// queue and run gauges are read from the database; upstream calls, uploads in flight and rate-limit
// refusals are counted; METRICS_TOKEN closes it; with WEB_CONCURRENCY=2 on PostgreSQL every scrape
// answers the sum of both processes. Runs its own servers (fresh databases: exact counts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartEnvelope } from "../../lib/files/multipart-body";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { ownServer, type OwnServer } from "./server";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text answer. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The one sample named `name` with exactly `labels`, or undefined. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(baseUrl: string, token?: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`${baseUrl}/api/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  const text = await res.text();
  return { text, samples: parse(text) };
}

/**
 * Scrapes until `ready(samples)` holds (a request is observed when its answer has ended, which the
 * client may see a moment before the server records it), then returns that scrape.
 */
async function scrapeUntil(baseUrl: string, ready: (s: Sample[]) => boolean, token?: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await scrape(baseUrl, token);
    if (ready(s.samples) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const DURATION = "agent_webhook_http_request_duration_seconds";
const requests = (s: Sample[], labels: Record<string, string>) => value(s, `${DURATION}_count`, labels) ?? 0;

/** A GET on a connection of its own (so that node:cluster spreads them over its processes). */
function getOnNewConnection(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { connection: "close" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString("utf8") }));
      })
      .on("error", reject);
  });
}

/** A request whose body the test sends in two parts: `finish()` sends the rest and reads the answer. */
function heldRequest(url: string, method: string, headers: Record<string, string>, first: Buffer) {
  const req = http.request(url, { method, headers, agent: false });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
  });
  req.write(first);
  return {
    finish(rest: Buffer) {
      req.end(rest);
      return answer;
    },
  };
}

describe("metrics", () => {
  let own: OwnServer;
  let key: string;
  let echo: string;
  let workflow: string;
  let runId: string;
  let upstream: http.Server;
  const TOKEN = "metrics-token-0123456789abcdef";

  beforeAll(async () => {
    // An http runtime that refuses every call (400: not retried, so one call per trigger).
    upstream = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(400, { "content-type": "application/json" }).end('{"error":"no"}'));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    // No in-process worker at first: a triggered run's job waits in the queue, to be seen there.
    own = await ownServer("metrics", { RUN_WORKER: "false" });
    key = await own.mintKey();
    echo = await own.createAgent(ECHO_AGENT);
    workflow = await own.createAgent(SIMPLE_WORKFLOW);
  });

  afterAll(async () => {
    await own?.dispose();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r) ?? r(null));
  });

  it("counts requests by method, route pattern and status, never by raw URL", async () => {
    const base = own.server.baseUrl;
    const before = (await scrape(base)).samples;
    const health = { method: "GET", route: "/api/health", status: "200" };
    const run = { method: "GET", route: "/api/agents/[agent_id]/runs/[run_id]", status: "404" };
    const refused = { method: "POST", route: "/api/health", status: "405" };
    for (let i = 0; i < 3; i++) expect((await own.call("GET", `/api/health?probe=${i}`)).status).toBe(200);
    const missingRun = "run_0MetricsNoSuchRun00000";
    for (let i = 0; i < 2; i++)
      expect((await own.call("GET", `/api/agents/${workflow}/runs/${missingRun}`, { auth: key })).status).toBe(404);
    expect((await own.call("POST", "/api/health", { body: {} })).status).toBe(405);

    const after = await scrapeUntil(base, (s) => requests(s, refused) - requests(before, refused) === 1);
    expect(requests(after.samples, health) - requests(before, health)).toBe(3);
    expect(requests(after.samples, run) - requests(before, run)).toBe(2);
    expect(requests(after.samples, refused) - requests(before, refused)).toBe(1);
    // A histogram: every observation is in the +Inf bucket, and the sum of durations grew.
    expect(value(after.samples, `${DURATION}_bucket`, { ...run, le: "+Inf" })).toBe(requests(after.samples, run));
    expect(value(after.samples, `${DURATION}_sum`, run)).toBeGreaterThan(0);
    // Bounded labels: no id, no query string.
    expect(after.text).not.toContain(workflow);
    expect(after.text).not.toContain(missingRun);
    expect(after.text).not.toContain("probe");
    // Node's own process metrics are there too.
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ])
      expect(value(after.samples, name), name).toBeGreaterThan(0);
  });

  it("reads queue depth, the oldest job's age and runs by state from the database", async () => {
    const triggered = await own.call("POST", `/api/agents/webhook/${workflow}`, {
      auth: key,
      body: { rows: [{ a: 1 }] },
    });
    expect(triggered.status).toBe(202);
    runId = triggered.body.run_id;
    const { samples } = await scrape(own.server.baseUrl);
    expect(value(samples, "agent_webhook_scrape_source_up", { source: "queues" })).toBe(1);
    expect(value(samples, "agent_webhook_scrape_source_up", { source: "runs" })).toBe(1);
    // Nothing works the queue here: the run's job waits.
    expect(value(samples, "agent_webhook_queue_depth", { queue: "run" })).toBe(1);
    expect(value(samples, "agent_webhook_queue_active", { queue: "run" })).toBe(0);
    const age = value(samples, "agent_webhook_queue_oldest_job_age_seconds", { queue: "run" })!;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(600);
    expect(value(samples, "agent_webhook_runs", { state: "pending" })).toBe(1);
    expect(value(samples, "agent_webhook_runs", { state: "completed" })).toBe(0);
    expect(value(samples, "agent_webhook_scrape_processes", { state: "answered" })).toBe(1);
  });

  it("times upstream calls by runtime type and counts their errors", async () => {
    const base = own.server.baseUrl;
    const refusing = await own.createAgent({
      name: "refusing",
      kind: "conversational",
      runtime: {
        type: "http",
        url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`,
        timeout_ms: 5_000,
      },
    });
    const before = (await scrape(base)).samples;
    const ok = { runtime: "echo", outcome: "ok" };
    const failed = { runtime: "http", outcome: "error" };
    const countOf = (s: Sample[], l: Record<string, string>) =>
      value(s, "agent_webhook_upstream_request_duration_seconds_count", l) ?? 0;
    const errorsOf = (s: Sample[]) =>
      value(s, "agent_webhook_upstream_errors_total", { runtime: "http", kind: "error" }) ?? 0;

    const replied = await own.call("POST", `/api/agents/webhook/${echo}`, { auth: key, body: { message: "hi" } });
    expect(replied.status).toBe(200);
    const refused = await own.call("POST", `/api/agents/webhook/${refusing}`, { auth: key, body: { message: "hi" } });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("upstream_error");

    const { samples } = await scrape(base);
    expect(countOf(samples, ok) - countOf(before, ok)).toBe(1);
    expect(countOf(samples, failed) - countOf(before, failed)).toBe(1);
    expect(errorsOf(samples) - errorsOf(before)).toBe(1);
  });

  it("shows uploads in flight while their bodies arrive, multipart and tus", async () => {
    const base = own.server.baseUrl;
    const inFlight = (s: Sample[], kind: string) => value(s, "agent_webhook_uploads_in_flight", { kind });

    const env = multipartEnvelope({ filename: "held.txt", contentType: "text/plain" });
    const content = Buffer.from("held until the metrics have seen it");
    const multipart = heldRequest(
      `${base}/api/agents/${echo}/upload`,
      "POST",
      {
        authorization: `Bearer ${key}`,
        "content-type": env.contentType,
        "content-length": String(env.length(content.length)),
      },
      Buffer.concat([env.head, content.subarray(0, 4)]),
    );
    expect(inFlight((await scrapeUntil(base, (s) => inFlight(s, "multipart") === 1)).samples, "multipart")).toBe(1);
    const uploaded = await multipart.finish(Buffer.concat([content.subarray(4), env.tail]));
    expect(uploaded.status, uploaded.body).toBe(200);
    expect(inFlight((await scrapeUntil(base, (s) => inFlight(s, "multipart") === 0)).samples, "multipart")).toBe(0);

    const created = await fetch(`${base}/api/agents/${echo}/upload/tus`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0", "upload-length": String(content.length) },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get("location")!, base).toString();
    const patch = heldRequest(
      location,
      "PATCH",
      {
        authorization: `Bearer ${key}`,
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
        "content-length": String(content.length),
      },
      content.subarray(0, 4),
    );
    expect(inFlight((await scrapeUntil(base, (s) => inFlight(s, "tus") === 1)).samples, "tus")).toBe(1);
    expect((await patch.finish(content.subarray(4))).status).toBe(204);
    expect(inFlight((await scrapeUntil(base, (s) => inFlight(s, "tus") === 0)).samples, "tus")).toBe(0);
  });

  it("counts rate-limit refusals", async () => {
    const minted = await own.call("POST", `/api/v1/organizations/${own.org.organization_id}/access-keys`, {
      auth: own.org.user_token,
      body: { name: "one a minute", permissions: ["agents:invoke"], rate_limit_per_minute: 1 },
    });
    expect(minted.status).toBe(201);
    const limited = { limiter: "access_key" };
    const before = value((await scrape(own.server.baseUrl)).samples, "agent_webhook_rate_limited_total", limited)!;
    expect((await own.call("GET", `/api/agents/${echo}/sessions`, { auth: minted.body.key })).status).toBe(200);
    expect((await own.call("GET", `/api/agents/${echo}/sessions`, { auth: minted.body.key })).status).toBe(429);
    const after = value((await scrape(own.server.baseUrl)).samples, "agent_webhook_rate_limited_total", limited)!;
    expect(after - before).toBe(1);
  });

  it("with METRICS_TOKEN, answers only that Bearer token (401 in the envelope otherwise)", async () => {
    // Restarted with the in-process worker too: the waiting run now completes.
    await own.restart("SIGTERM", { RUN_WORKER: "true", METRICS_TOKEN: TOKEN });
    const base = own.server.baseUrl;
    for (const authorization of [
      undefined,
      "Bearer wrong-token-0123456789abcdef",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]) {
      const res = await fetch(`${base}/api/metrics`, { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      const body = await res.json();
      expect(body.error.code).toBe("unauthorized");
      expect(res.headers.get("x-request-id")).toBe(body.error.request_id);
    }
    const done = await scrapeUntil(base, (s) => value(s, "agent_webhook_runs", { state: "completed" }) === 1, TOKEN);
    expect(value(done.samples, "agent_webhook_runs", { state: "completed" })).toBe(1);
    expect(value(done.samples, "agent_webhook_runs", { state: "pending" })).toBe(0);
    expect(value(done.samples, "agent_webhook_queue_depth", { queue: "run" })).toBe(0);
    expect(value(done.samples, "agent_webhook_queue_oldest_job_age_seconds", { queue: "run" })).toBe(0);
    const run = await own.call("GET", `/api/agents/${workflow}/runs/${runId}`, { auth: key });
    expect(run.body.status).toBe("completed");
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)("metrics with WEB_CONCURRENCY=2 on PostgreSQL", () => {
  let own: OwnServer | undefined;
  afterAll(() => own?.dispose());

  it("sums both processes in every answer", { timeout: 300_000 }, async () => {
    own = await ownServer("metrics-cluster", { WEB_CONCURRENCY: "2" });
    const base = own.server.baseUrl;
    // /api/ready rather than /api/health: the start-up probe polls /api/health, and a probe the
    // loaded machine answered late would be counted after `before`.
    const health = { method: "GET", route: "/api/ready", status: "200" };
    const before = (await scrape(base)).samples;
    expect(value(before, "agent_webhook_scrape_processes", { state: "answered" })).toBe(2);
    expect(value(before, "agent_webhook_scrape_processes", { state: "missing" })).toBe(0);

    const N = 20;
    for (let i = 0; i < N; i++) expect((await getOnNewConnection(`${base}/api/ready`)).status).toBe(200);
    const total = requests(before, health) + N;
    await scrapeUntil(base, (s) => requests(s, health) === total);
    // Scrapes on connections of their own reach either process: each answers the same sum.
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await getOnNewConnection(`${base}/api/metrics`);
      expect(res.status).toBe(200);
      const samples = parse(res.text);
      expect(value(samples, "agent_webhook_scrape_processes", { state: "answered" })).toBe(2);
      counts.push(requests(samples, health));
    }
    expect(counts).toEqual(Array(6).fill(total));
  });
});
