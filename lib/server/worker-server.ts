// The standalone worker's own HTTP listener (scripts/worker.ts, on WORKER_PORT when it is set): a
// worker serves no API, but an orchestrator probes it and Prometheus scrapes it like a server.
//   GET /health   liveness: the database answers (as the server's /api/health)
//   GET /ready    readiness: database and queue, 503 once a graceful shutdown has begun (lib/readiness.ts)
//   GET /metrics  Prometheus: this process's metrics (its upstream calls, Node's process metrics) and
//                 the queue and run gauges read from the database, as the server's /api/metrics;
//                 with METRICS_TOKEN only for that Bearer token
// Answers and errors are the API's: JSON with Cache-Control: no-store, the error envelope with an
// X-Request-Id; other paths 404, other methods 405 with Allow.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { database } from "../db";
import { ApiError } from "../errors";
import { within } from "../lifecycle";
import { METRICS_CONTENT_TYPE } from "../metrics";
import { requireScrapeToken, scrapeMetrics } from "../observability/scrape";
import { readiness, READY_TIMEOUT_MS } from "../readiness";
import { apiErrorOf, errorBody } from "../http/respond";

type Answer = { status?: number; type: string; body: string };

const jsonAnswer = (body: unknown): Answer => ({
  type: "application/json; charset=utf-8",
  body: JSON.stringify(body),
});

const ROUTES: Record<string, (req: http.IncomingMessage) => Promise<Answer>> = {
  "/health": async () => {
    try {
      await within(
        READY_TIMEOUT_MS,
        "database check",
        database().then((d) => d.sql.query("SELECT 1")),
      );
    } catch {
      throw new ApiError("service_unavailable", "The database does not answer.");
    }
    return jsonAnswer({ status: "ok" });
  },
  "/ready": async () => jsonAnswer(await readiness()),
  "/metrics": async (req) => {
    requireScrapeToken(req.headers.authorization ?? null);
    return { type: METRICS_CONTENT_TYPE, body: await scrapeMetrics() };
  },
};

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const requestId = randomUUID();
  const send = (status: number, a: Answer, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      "content-type": a.type,
      "cache-control": "no-store",
      "x-request-id": requestId,
      ...headers,
    });
    res.end(req.method === "HEAD" ? undefined : a.body);
  };
  try {
    const route = ROUTES[new URL(req.url ?? "/", "http://worker").pathname];
    if (!route) throw new ApiError("not_found", "Not found: the worker answers /health, /ready and /metrics.");
    if (req.method !== "GET" && req.method !== "HEAD") {
      const err = new ApiError("method_not_allowed", `Method ${req.method} is not allowed here.`);
      return send(err.status, jsonAnswer(errorBody(err, requestId)), { allow: "GET, HEAD" });
    }
    const a = await route(req);
    send(a.status ?? 200, a);
  } catch (err) {
    const apiErr = apiErrorOf(err, requestId);
    const retry = apiErr.details?.retry_after_seconds;
    send(apiErr.status, jsonAnswer(errorBody(apiErr, requestId)), retry ? { "retry-after": String(retry) } : {});
  }
}

export interface WorkerServer {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free port) of `host`; resolves once listening. */
export async function serveWorker(port: number, host: string): Promise<WorkerServer> {
  const server = http.createServer((req, res) => {
    req.resume(); // no route reads a body
    void answer(req, res);
  });
  // Probes and scrapes are small and quick: a slow client is not kept.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
