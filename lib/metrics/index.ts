// Prometheus metrics (prom-client): one registry per process with the metrics the code records as
// it goes (requests, upstream calls, uploads, rate-limit refusals, Node's own process metrics), and
// the cluster protocol that sums the processes of one server (WEB_CONCURRENCY) into one answer.
// What is read from the database at scrape time (queues, runs) is ./database.ts, used by the route
// only: server.ts bundles this file and must not pull the database in.
//
// The registry lives on globalThis: server.ts (dist/server.mjs) and Next's route bundles each carry
// a copy of this module, and both must record into the same metrics.
import cluster, { type Worker } from "node:cluster";
import client from "prom-client";
import { processOnce } from "../process-state";

/** Prefix of the service's own metrics (Node's default metrics keep their standard names). */
export const METRIC_PREFIX = "agent_webhook_";

/** Seconds; requests include long polls and synchronous triggers (TRIGGER_WAIT_MS, 25 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds; model calls take seconds to minutes. */
const UPSTREAM_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export type UploadKind = "multipart" | "tus";
export type Limiter = "access_key" | "sign_in" | "invitation";

export interface Metrics {
  registry: client.Registry;
  requestDuration: client.Histogram<"method" | "route" | "status">;
  upstreamDuration: client.Histogram<"runtime" | "outcome">;
  upstreamErrors: client.Counter<"runtime" | "kind">;
  uploadsInFlight: client.Gauge<"kind">;
  rateLimited: client.Counter<"limiter">;
  callbackAttempts: client.Counter<"outcome">;
}

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const m: Metrics = {
    registry,
    requestDuration: new client.Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: "HTTP requests by method, route pattern (as the app/ folders spell it) and status, until the answer ended.",
      labelNames: ["method", "route", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    upstreamDuration: new client.Histogram({
      name: `${METRIC_PREFIX}upstream_request_duration_seconds`,
      help: "Calls to agent runtimes (replies, workflow llm and http steps) by runtime type and outcome (ok, error, timeout).",
      labelNames: ["runtime", "outcome"],
      buckets: UPSTREAM_BUCKETS,
      registers,
    }),
    upstreamErrors: new client.Counter({
      name: `${METRIC_PREFIX}upstream_errors_total`,
      help: "Failed calls to agent runtimes by runtime type and kind (error, timeout).",
      labelNames: ["runtime", "kind"],
      registers,
    }),
    uploadsInFlight: new client.Gauge({
      name: `${METRIC_PREFIX}uploads_in_flight`,
      help: "Upload requests whose body is being received, by kind (multipart, tus).",
      labelNames: ["kind"],
      registers,
    }),
    rateLimited: new client.Counter({
      name: `${METRIC_PREFIX}rate_limited_total`,
      help: "Requests refused with 429 rate_limited, by limiter (access_key, sign_in, invitation: wrong invitation links).",
      labelNames: ["limiter"],
      registers,
    }),
    callbackAttempts: new client.Counter({
      name: `${METRIC_PREFIX}callback_attempts_total`,
      help: "Completion callback attempts by outcome (delivered, retry, failed: the last attempt, or a refused address).",
      labelNames: ["outcome"],
      registers,
    }),
  };
  // Series that exist before their first event, so that rates and sums start at 0.
  for (const kind of ["multipart", "tus"] as const) m.uploadsInFlight.set({ kind }, 0);
  for (const limiter of ["access_key", "sign_in", "invitation"] as const) m.rateLimited.inc({ limiter }, 0);
  if (cluster.isWorker) answerPrimary(registry);
  return m;
}

/** The process's metrics (created on first use). */
export const metrics = (): Metrics => processOnce("metrics", create);

// --- request timing (server.ts) ---------------------------------------------------------------

const METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);
/** Status codes as label values, made once (no string per request). */
const STATUS_LABELS: string[] = Array.from({ length: 600 }, (_, i) => String(i));

/**
 * Records one request: `route` is its route pattern (bounded set), never the raw URL. Called when
 * the response has ended or the connection closed (status 499 when the client left first).
 */
export function observeRequest(method: string | undefined, route: string, status: number, startedMs: number) {
  metrics().requestDuration.observe(
    {
      method: method !== undefined && METHODS.has(method) ? method : "other",
      route,
      status: STATUS_LABELS[status] ?? "other",
    },
    (performance.now() - startedMs) / 1000,
  );
}

// --- upstream calls (lib/runtime) -------------------------------------------------------------

/**
 * Times an upstream call of runtime type `runtime` (echo, openai, http). A failure is counted by its
 * `kind` (the RuntimeError kind, "timeout" or "error") and rethrown.
 */
export async function measureUpstream<T>(
  runtime: string,
  call: () => Promise<T>,
  kindOf: (err: unknown) => string,
): Promise<T> {
  const m = metrics();
  const started = performance.now();
  try {
    const result = await call();
    m.upstreamDuration.observe({ runtime, outcome: "ok" }, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    const kind = kindOf(err);
    m.upstreamDuration.observe({ runtime, outcome: kind }, (performance.now() - started) / 1000);
    m.upstreamErrors.inc({ runtime, kind });
    throw err;
  }
}

// --- uploads and refusals ---------------------------------------------------------------------

/** Counts an upload request as in flight while `receive` runs. */
export async function trackUpload<T>(kind: UploadKind, receive: () => Promise<T>): Promise<T> {
  const gauge = metrics().uploadsInFlight;
  gauge.inc({ kind });
  try {
    return await receive();
  } finally {
    gauge.dec({ kind });
  }
}

export function countRateLimited(limiter: Limiter) {
  metrics().rateLimited.inc({ limiter });
}

export function countCallbackAttempt(outcome: "delivered" | "retry" | "failed") {
  metrics().callbackAttempts.inc({ outcome });
}

// --- the cluster: one answer for all server processes -----------------------------------------
//
// Under node:cluster every process has its own registry and the port is shared, so a scrape reaches
// one process at random. That process asks the primary, which collects every process's metrics
// (prom-client's JSON form) and sums them with prom-client's AggregatorRegistry.aggregate (gauges of
// Node's event loop are averaged, versions taken once, as prom-client declares them).

const COLLECT = "aws:metrics:collect";
const LOCAL = "aws:metrics:local";
const REQUEST = "aws:metrics:request";
const AGGREGATED = "aws:metrics:aggregated";

/** How long the primary waits for the processes' metrics; those that do not answer are left out. */
const COLLECT_TIMEOUT_MS = 2_000;
/** How long a process waits for the primary's answer. */
const REQUEST_TIMEOUT_MS = 4_000;

type Message = {
  type?: unknown;
  id?: unknown;
  metrics?: unknown;
  text?: unknown;
  error?: unknown;
  processes?: unknown;
};
type MetricsJson = Awaited<ReturnType<client.Registry["getMetricsAsJSON"]>>;

/** The metrics of the server's processes, and how many processes they are summed over. */
export interface ProcessMetrics {
  text: string;
  /** Processes whose metrics are in `text`, and those that did not answer in time. */
  processes: { answered: number; missing: number };
}

/** A server process: answers the primary's collection requests with this process's metrics. */
function answerPrimary(registry: client.Registry) {
  process.on("message", (msg: Message) => {
    if (msg?.type !== COLLECT) return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => process.send?.({ type: LOCAL, id: msg.id, metrics }))
      .catch(() => process.send?.({ type: LOCAL, id: msg.id, metrics: [] }));
  });
}

let nextRequest = 0;

/**
 * The metrics of this process in the Prometheus text format, summed over every server process when
 * this is one of several (node:cluster). Rejects when the primary does not answer in time.
 */
export async function processMetrics(): Promise<ProcessMetrics> {
  const { registry } = metrics();
  if (!cluster.isWorker || !process.send) {
    return { text: await registry.metrics(), processes: { answered: 1, missing: 0 } };
  }
  const id = `${process.pid}:${nextRequest++}`;
  return new Promise<ProcessMetrics>((resolve, reject) => {
    const done = (err: Error | undefined, result?: ProcessMetrics) => {
      clearTimeout(timer);
      process.off("message", onMessage);
      if (err) reject(err);
      else resolve(result!);
    };
    const onMessage = (msg: Message) => {
      if (msg?.type !== AGGREGATED || msg.id !== id) return;
      if (typeof msg.text === "string")
        done(undefined, { text: msg.text, processes: msg.processes as ProcessMetrics["processes"] });
      else done(new Error(String(msg.error ?? "no metrics")));
    };
    const timer = setTimeout(() => done(new Error("the primary process did not answer")), REQUEST_TIMEOUT_MS);
    process.on("message", onMessage);
    process.send!({ type: REQUEST, id });
  });
}

/**
 * The cluster primary (server.ts): answers a server process's request for the metrics of all of
 * them. A process that does not answer within COLLECT_TIMEOUT_MS (starting, or stuck) is left out
 * and counted as missing.
 */
export function serveClusterMetrics() {
  let nextCollect = 0;
  const pending = new Map<string, (workerId: number, metrics: MetricsJson) => void>();
  cluster.on("message", (worker, msg: Message) => {
    if (msg?.type === LOCAL) {
      if (typeof msg.id === "string" && Array.isArray(msg.metrics)) pending.get(msg.id)?.(worker.id, msg.metrics);
      return;
    }
    if (msg?.type !== REQUEST) return;
    const requestId = msg.id;
    const collectId = `c${nextCollect++}`;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected()) as Worker[];
    const waiting = new Set(workers.map((w) => w.id));
    const responses: MetricsJson[] = [];
    const finish = async () => {
      clearTimeout(timer);
      pending.delete(collectId);
      const processes = { answered: responses.length, missing: waiting.size };
      let answer: Message;
      try {
        const text = await client.AggregatorRegistry.aggregate(responses).metrics();
        answer = { type: AGGREGATED, id: requestId, text, processes };
      } catch (err) {
        answer = { type: AGGREGATED, id: requestId, error: (err as Error).message };
      }
      if (worker.isConnected()) worker.send(answer);
    };
    const timer = setTimeout(() => void finish(), COLLECT_TIMEOUT_MS);
    pending.set(collectId, (workerId, m) => {
      if (!waiting.delete(workerId)) return;
      responses.push(m);
      if (waiting.size === 0) void finish();
    });
    for (const w of workers) w.send({ type: COLLECT, id: collectId });
    if (workers.length === 0) void finish();
  });
}

export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;
