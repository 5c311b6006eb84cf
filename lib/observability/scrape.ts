// The answer of /api/metrics: who may scrape (METRICS_TOKEN); the processes' own metrics (lib/metrics,
// summed over the cluster); and what is read from the database at scrape time, once for the whole
// service rather than per process: queue depth, deferred and active jobs and the oldest ready job's
// age per queue (pg-boss's job table), and runs by state. Each read is bounded (SCRAPE_TIMEOUT_MS: a
// statement timeout on PostgreSQL, and a race everywhere); a source that fails or times out is
// reported down (agent_webhook_scrape_source_up 0) without its gauges, and the rest is answered.
import client from "prom-client";
import { bearerToken, safeEqual, sha256 } from "../auth/secrets";
import { database } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import { within } from "../lifecycle";
import { QUEUE_SCHEMA } from "../queue";
import { QUEUE_NAMES } from "../queue/jobs";
import { RUN_STATUSES } from "../runs/state";
import { METRIC_PREFIX, processMetrics, type ProcessMetrics } from "../metrics";

export const SCRAPE_TIMEOUT_MS = 2_000;

const QUEUE_SQL = `
  SELECT name,
    count(*) FILTER (WHERE state < 'active' AND start_after <= now())::int AS ready,
    count(*) FILTER (WHERE state < 'active' AND start_after > now())::int AS deferred,
    count(*) FILTER (WHERE state = 'active')::int AS active,
    COALESCE(EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE state < 'active' AND start_after <= now())), 0)::float8 AS oldest_seconds
  FROM ${QUEUE_SCHEMA}.job
  WHERE state < 'completed'
  GROUP BY name`;

// Kept by a trigger as runs move (prisma/schema.prisma RunStatusCount): the scrape never counts runs.
const RUNS_SQL = `SELECT status, sum(n)::int AS n FROM run_status_counts GROUP BY status`;

interface QueueRow {
  name: string;
  ready: number;
  deferred: number;
  active: number;
  oldest_seconds: number;
}

/** One read-only statement, bounded: on PostgreSQL by a statement timeout as well as the race. */
async function boundedQuery<T>(sql: string): Promise<T[]> {
  return within(
    SCRAPE_TIMEOUT_MS,
    "metrics query",
    (async () => {
      const db = await database();
      if (db.kind !== "postgres") return db.sql.query<T>(sql);
      const conn = await db.pool!.connect();
      try {
        await conn.query("BEGIN READ ONLY");
        await conn.query(`SET LOCAL statement_timeout = ${SCRAPE_TIMEOUT_MS}`);
        const rows = (await conn.query(sql)).rows as T[];
        await conn.query("COMMIT");
        return rows;
      } catch (err) {
        await conn.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        conn.release();
      }
    })(),
  );
}

/** The gauges read from the database, in a registry of their own (made per scrape). */
async function databaseRegistry(processes: ProcessMetrics["processes"]): Promise<client.Registry> {
  const registry = new client.Registry();
  const registers = [registry];
  const up = new client.Gauge({
    name: `${METRIC_PREFIX}scrape_source_up`,
    help: "1 when this scrape could read the source (queues, runs) from the database in time, else 0.",
    labelNames: ["source"],
    registers,
  });
  const procs = new client.Gauge({
    name: `${METRIC_PREFIX}scrape_processes`,
    help: "Server processes whose metrics this answer sums (answered), and those that did not answer in time (missing).",
    labelNames: ["state"],
    registers,
  });
  procs.set({ state: "answered" }, processes.answered);
  procs.set({ state: "missing" }, processes.missing);

  const [queues, runs] = await Promise.allSettled([
    boundedQuery<QueueRow>(QUEUE_SQL),
    boundedQuery<{ status: string; n: number }>(RUNS_SQL),
  ]);

  up.set({ source: "queues" }, queues.status === "fulfilled" ? 1 : 0);
  if (queues.status === "fulfilled") {
    const gauge = (name: string, help: string) =>
      new client.Gauge({ name: `${METRIC_PREFIX}${name}`, help, labelNames: ["queue"], registers });
    const depth = gauge("queue_depth", "Jobs ready to run and waiting for a worker, per queue.");
    const deferred = gauge("queue_deferred", "Jobs waiting for a later start (a retry's backoff), per queue.");
    const active = gauge("queue_active", "Jobs being worked on, per queue.");
    const oldest = gauge(
      "queue_oldest_job_age_seconds",
      "Seconds since the oldest job ready to run became due (enqueued, or its retry time came); 0 when none waits.",
    );
    const rows = new Map(queues.value.map((r) => [r.name, r]));
    for (const queue of QUEUE_NAMES) {
      const r = rows.get(queue);
      depth.set({ queue }, Number(r?.ready ?? 0));
      deferred.set({ queue }, Number(r?.deferred ?? 0));
      active.set({ queue }, Number(r?.active ?? 0));
      oldest.set({ queue }, Math.max(0, Number(r?.oldest_seconds ?? 0)));
    }
  }

  up.set({ source: "runs" }, runs.status === "fulfilled" ? 1 : 0);
  if (runs.status === "fulfilled") {
    const byState = new client.Gauge({
      name: `${METRIC_PREFIX}runs`,
      help: "Workflow runs by state (every organization).",
      labelNames: ["state"],
      registers,
    });
    const counts = new Map(runs.value.map((r) => [r.status, Number(r.n)]));
    for (const state of RUN_STATUSES) byState.set({ state }, counts.get(state) ?? 0);
  }
  return registry;
}

/**
 * The whole answer of /api/metrics: the processes' metrics (summed over the cluster) and the
 * gauges read from the database. 503 when the cluster's primary does not answer.
 */
export async function scrapeMetrics(): Promise<string> {
  let processes: ProcessMetrics;
  try {
    processes = await processMetrics();
  } catch {
    throw new ApiError("service_unavailable", "The server processes' metrics could not be collected.", {
      retry_after_seconds: 1,
    });
  }
  const fromDatabase = await (await databaseRegistry(processes.processes)).metrics();
  const head = processes.text.endsWith("\n") || !processes.text ? processes.text : `${processes.text}\n`;
  return head + fromDatabase;
}

/**
 * With METRICS_TOKEN set, a scrape must carry `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time); without it the metrics are open.
 */
export function requireScrapeToken(authorization: string | null) {
  const expected = env().METRICS_TOKEN;
  if (expected === undefined) return;
  const given = bearerToken(authorization);
  // Hashes first: equal lengths, so the comparison says nothing about the token's length either.
  if (given === null || !safeEqual(sha256(given), sha256(expected))) {
    throw new ApiError("unauthorized", "Missing or invalid metrics token.");
  }
}
