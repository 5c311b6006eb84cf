// Cost as data grows (docs/benchmarks.md "scale"): the same requests measured on a fresh database
// and again after seeding one organization with a busy history, in one run, on one server process.
// The seed is written by SQL (minutes, not the API): BENCH_SCALE_MESSAGES messages (default
// 1,000,000 on PostgreSQL, 100,000 on the embedded database) in half as many sessions (80 % on one
// agent), a tenth as many runs with as many run items as messages (most in a few large runs), a
// tenth as many audit rows and callback deliveries, and files. Then ANALYZE, as autovacuum would
// have done after such growth. Each request is driven by autocannon (BENCH_DURATION seconds,
// default 5, 8 connections); the figures are requests a second and latency percentiles.
// PostgreSQL with TEST_DATABASE_URL (an admin URL: a fresh database is made and dropped), else the
// embedded database. Needs a production build.
import { PGlite } from "@electric-sql/pglite";
import path from "node:path";
import pg from "pg";
import { admin, ownServer, startServer, type OwnServer } from "../e2e/api/server";
import { load, type Figure } from "./load";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const MESSAGES = Number(process.env.BENCH_SCALE_MESSAGES ?? (onPostgres ? 1_000_000 : 100_000));
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 8;
const PASSWORD = "correct horse battery";
/** The instant `n` days ago, for a query string. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** The seed, for the organization `org` and its agents (`busy` and `quiet` conversational, `wf` a workflow). */
function seedSql(o: { org: string; project: string; busy: string; quiet: string; wf: string }) {
  const sessions = MESSAGES / 2;
  const runs = MESSAGES / 10;
  const audit = MESSAGES / 10;
  const deliveries = MESSAGES / 10;
  const bigRuns = 5; // most items are in a few large runs; every other run has 2
  const itemsPerBigRun = (MESSAGES - 2 * (runs - bigRuns)) / bigRuns;
  const span = "interval '180 days'";
  const at = (i: string, n: number) => `now() - ${span} + (${i} * ${span} / ${n})`;
  // The counter triggers are off for the seed (as for any bulk import: within one transaction each
  // counter row's versions pile up, and every further update walks them), and the counters of the
  // seeded rows are added after, by one GROUP BY each, as the migration that made them backfilled.
  return `
SET session_replication_role = replica;
INSERT INTO sessions (id, organization_id, project_id, agent_id, status, environment, user_id, created_at, last_message_at, message_count)
SELECT 'sess_s' || lpad(i::text, 10, '0'), '${o.org}', '${o.project}',
  CASE WHEN i % 10 < 8 THEN '${o.busy}' ELSE '${o.quiet}' END,
  CASE WHEN i % 7 = 0 THEN 'closed' ELSE 'active' END,
  (CASE WHEN i % 20 = 3 THEN 'draft' ELSE 'production' END)::"Environment",
  'user-' || (i % 5000), ${at("i", sessions)}, ${at("i", sessions)} + interval '1 minute', 2
FROM generate_series(1, ${sessions}) i;

INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, created_at, completed_at, reply_to_id, error)
SELECT 'msg_s' || lpad((2 * s.n - 1 + r)::text, 10, '0'), s.id, s.agent_id, s.organization_id, s.project_id,
  CASE WHEN r = 0 THEN 'user' ELSE 'assistant' END,
  CASE WHEN r = 1 AND s.n % 100 = 0 THEN 'error' ELSE 'completed' END,
  'message ' || s.n, s.created_at + r * interval '1 second', s.created_at + r * interval '2 seconds',
  CASE WHEN r = 1 THEN 'msg_s' || lpad((2 * s.n - 1)::text, 10, '0') END,
  CASE WHEN r = 1 AND s.n % 100 = 0 THEN '{"code":"message_processing_failed","message":"failed"}'::jsonb END
FROM (SELECT id, agent_id, organization_id, project_id, created_at, substr(id, 7)::int AS n FROM sessions WHERE id LIKE 'sess_s%') s,
  generate_series(0, 1) r;

INSERT INTO runs (id, organization_id, project_id, agent_id, status, inputs, definition, items_total, created_at, updated_at, completed_at)
SELECT 'run_s' || lpad(i::text, 10, '0'), '${o.org}', '${o.project}', '${o.wf}',
  (ARRAY['completed','completed','completed','failed','needs_review','cancelled','completed','completed'])[1 + i % 8],
  '{"rows":[]}', '{"steps":[]}', CASE WHEN i <= ${bigRuns} THEN ${itemsPerBigRun} ELSE 2 END,
  ${at("i", runs)}, ${at("i", runs)} + interval '1 minute', ${at("i", runs)} + interval '1 minute'
FROM generate_series(1, ${runs}) i;

INSERT INTO run_items (id, run_id, index, status, data, updated_at)
SELECT 'ri_s' || r || '_' || k, 'run_s' || lpad(r::text, 10, '0'), k,
  CASE WHEN k % 50 = 0 THEN 'needs_review' WHEN k % 10 = 0 THEN 'failed' ELSE 'completed' END, '{"n":1}', now()
FROM generate_series(1, ${bigRuns}) r, generate_series(0, ${itemsPerBigRun - 1}) k;
INSERT INTO run_items (id, run_id, index, status, data, updated_at)
SELECT 'ri_s' || r || '_' || k, 'run_s' || lpad(r::text, 10, '0'), k, 'completed', '{"n":1}', now()
FROM generate_series(${bigRuns + 1}, ${runs}) r, generate_series(0, 1) k;

INSERT INTO audit_events (id, organization_id, actor_type, action, action_group, target_type, target_id, created_at)
SELECT 'evt_s' || lpad(i::text, 10, '0'), '${o.org}', 'key', a.action, split_part(a.action, '.', 1), 'run',
  'run_s' || lpad((i % ${runs} + 1)::text, 10, '0'), ${at("i", audit)}
FROM generate_series(1, ${audit}) i,
  LATERAL (SELECT (ARRAY['run.completed','run.failed','key.created','agent.updated'])[1 + i % 4] AS action) a;

INSERT INTO callback_deliveries (id, organization_id, agent_id, subject_id, event, url, body, status, attempts, created_at, delivered_at)
SELECT 'dlv_s' || lpad(i::text, 10, '0'), '${o.org}', '${o.wf}', 'run_s' || lpad((i % ${runs} + 1)::text, 10, '0'),
  'run.completed', 'https://example.com/hook', '{}', CASE WHEN i % 25 = 0 THEN 'failed' ELSE 'delivered' END, 1,
  ${at("i", deliveries)}, ${at("i", deliveries)}
FROM generate_series(1, ${deliveries}) i;

INSERT INTO files (id, organization_id, agent_id, filename, content_type, size_bytes, storage_key, created_at)
SELECT 'fi_s' || lpad(i::text, 10, '0'), '${o.org}', '${o.wf}', 'f' || i || '.csv', 'text/csv', 10, 'seed/' || i, ${at("i", MESSAGES / 100)}
FROM generate_series(1, ${MESSAGES / 100}) i;

SET session_replication_role = DEFAULT;
INSERT INTO run_status_counts (organization_id, status, slot, n)
SELECT organization_id, status, abs(hashtext(id)) % 8, count(*) FROM runs WHERE id LIKE 'run_s%' GROUP BY 1, 2, 3
ON CONFLICT (organization_id, status, slot) DO UPDATE SET n = run_status_counts.n + EXCLUDED.n;
INSERT INTO session_counts_hourly (organization_id, environment, hour, slot, n)
SELECT organization_id, environment, date_trunc('hour', created_at), abs(hashtext(id)) % 8, count(*)
FROM sessions WHERE id LIKE 'sess_s%' GROUP BY 1, 2, 3, 4
ON CONFLICT (organization_id, environment, hour, slot) DO UPDATE SET n = session_counts_hourly.n + EXCLUDED.n;

ANALYZE;`;
}

interface Target {
  name: string;
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Console lists: held to 300 ms at p99 seeded. */
  list?: boolean;
  /**
   * A deep page: `path` is the first page; seeded, the page measured is the one after this many pages,
   * by cursor. A fresh database has no such page: there its first page is the baseline.
   */
  deep?: number;
}

/** The path of a console list's page after `pages` pages, walked by `next_cursor` as the console does. */
async function deepPath(own: OwnServer, t: Target): Promise<string> {
  let cursor: string | null = null;
  for (let i = 0; i < t.deep!; i++) {
    const url = `${own.server.baseUrl}${t.path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await fetch(url, { headers: t.headers });
    const body = (await res.json()) as { next_cursor?: string | null };
    if (res.status !== 200 || !body.next_cursor) throw new Error(`${t.name}: no page ${i + 2} (${res.status})`);
    cursor = body.next_cursor;
  }
  return `${t.path}&cursor=${encodeURIComponent(cursor!)}`;
}

/** The largest tables after the seed: rows (the planner's estimate), table and index bytes. */
async function printSizes(client: pg.Client) {
  const { rows } = await client.query(`
    SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_size_pretty(pg_table_size(c.oid)) AS data,
      pg_size_pretty(pg_indexes_size(c.oid)) AS indexes
    FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
    ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8`);
  console.log("\n| table | rows | data | indexes |\n|---|---|---|---|");
  for (const r of rows)
    console.log(`| ${r.name} | ${Number(r.rows).toLocaleString("en")} | ${r.data} | ${r.indexes} |`);
  const total = await client.query("SELECT pg_size_pretty(pg_database_size(current_database())) AS size");
  console.log(`database: ${total.rows[0].size}\n`);
}

async function signIn(own: OwnServer, email: string): Promise<string> {
  const base = own.server.baseUrl;
  const res = await fetch(`${base}/api/console/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

async function measure(
  own: OwnServer,
  targets: Target[],
  duration = DURATION,
  deep = false,
): Promise<Map<string, Figure>> {
  const figures = new Map<string, Figure>();
  for (const t of targets) {
    const figure = await load({
      url: `${own.server.baseUrl}${deep && t.deep ? await deepPath(own, t) : t.path}`,
      method: t.method ?? "GET",
      headers: { ...t.headers, ...(t.body ? { "content-type": "application/json" } : {}) },
      body: t.body,
      connections: CONNECTIONS,
      duration,
    });
    if (figure.non2xx || figure.errors) {
      throw new Error(`${t.name}: ${figure.statuses}, ${figure.errors} errors: the benchmark measures answers only`);
    }
    figures.set(t.name, figure);
    console.log(`  ${t.name}: ${Math.round(figure.rps)} req/s, p50 ${figure.p50} ms, p99 ${figure.p99} ms`);
  }
  return figures;
}

export default async function scaleBench() {
  const label = "scale";
  const own = await ownServer(label, { LOG_LEVEL: "warn", TRIGGER_WAIT_MS: "25000" });
  try {
    const { organization_id: org, project_id: project } = own.org;
    const key = await own.mintKey();
    const busy = await own.createAgent({ name: "busy", kind: "conversational", runtime: { type: "echo" } });
    const quiet = await own.createAgent({ name: "quiet", kind: "conversational", runtime: { type: "echo" } });
    const wf = await own.createAgent({
      name: "wf",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true } },
        items: { from: "rows" },
        steps: [{ id: "t", type: "transform", expression: "$" }],
      },
    });
    const auth = { authorization: `Bearer ${key}` };
    // The objects the point reads ask for: made through the API, before the seed.
    const reply = await own.call("POST", `/api/agents/webhook/${busy}`, { auth: key, body: { message: "hi" } });
    const run = await own.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [{ a: 1 }] } });
    if (reply.status !== 200 || run.status !== 202) throw new Error("could not make the objects to read");
    const { session_id: sessionId, message_id: messageId } = reply.body;
    // Enough history that every list answers full pages fresh too: the ratios then compare the same
    // page sizes, not one row against fifty.
    for (let i = 0; i < 60; i++) {
      await own.call("POST", `/api/agents/webhook/${busy}`, { auth: key, body: { message: `hello ${i}` } });
      await own.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [{ a: i }] } });
    }
    const runId = run.body.run_id as string;
    const cookie = await signIn(own, `${label}@example.com`);
    const consoleHeaders = { cookie };

    const targets: Target[] = [
      { name: "GET message", path: `/api/agents/${busy}/sessions/${sessionId}/messages/${messageId}`, headers: auth },
      { name: "GET session", path: `/api/agents/${busy}/sessions/${sessionId}`, headers: auth },
      { name: "session messages", path: `/api/agents/${busy}/sessions/${sessionId}/messages`, headers: auth },
      { name: "list sessions (busy agent)", path: `/api/agents/${busy}/sessions`, headers: auth },
      { name: "GET run", path: `/api/agents/${wf}/runs/${runId}`, headers: auth },
      { name: "list runs", path: `/api/agents/${wf}/runs`, headers: auth },
      {
        name: "async trigger",
        method: "POST",
        path: `/api/agents/webhook/${quiet}`,
        headers: { ...auth, prefer: "respond-async" },
        body: JSON.stringify({ message: "hello" }),
      },
      {
        name: "sync trigger",
        method: "POST",
        path: `/api/agents/webhook/${quiet}`,
        headers: auth,
        body: JSON.stringify({ message: "hello" }),
      },
      { name: "console overview", path: `/api/v1/organizations/${org}/overview`, headers: consoleHeaders, list: true },
      {
        name: "console sessions",
        path: `/api/v1/organizations/${org}/sessions?limit=50`,
        headers: consoleHeaders,
        list: true,
      },
      {
        name: "console sessions, page 41",
        path: `/api/v1/organizations/${org}/sessions?limit=50`,
        headers: consoleHeaders,
        list: true,
        deep: 40,
      },
      { name: "console runs", path: `/api/v1/organizations/${org}/runs?limit=50`, headers: consoleHeaders, list: true },
      {
        name: "console runs, page 41",
        path: `/api/v1/organizations/${org}/runs?limit=50`,
        headers: consoleHeaders,
        list: true,
        deep: 40,
      },
      {
        name: "console audit",
        path: `/api/v1/organizations/${org}/audit?limit=50`,
        headers: consoleHeaders,
        list: true,
      },
      {
        name: "console deliveries",
        path: `/api/v1/organizations/${org}/deliveries?limit=50`,
        headers: consoleHeaders,
        list: true,
      },
      { name: "metrics scrape", path: "/api/metrics" },
      // Usage from the hourly rollups (lib/usage), which the seed's backfill fills: held to 300 ms.
      {
        name: "usage API, 30 days by hour",
        path: `/api/v1/organizations/${org}/usage?from=${daysAgo(30)}&group_by=hour`,
        headers: { authorization: `Bearer ${own.org.user_token}` },
        list: true,
      },
      {
        name: "usage API, 89 days by agent",
        path: `/api/v1/organizations/${org}/usage?from=${daysAgo(89)}&group_by=agent`,
        headers: { authorization: `Bearer ${own.org.user_token}` },
        list: true,
      },
      {
        name: "console usage, 30 days by day",
        path: `/api/v1/organizations/${org}/usage?from=${daysAgo(30)}&group_by=day`,
        headers: consoleHeaders,
        list: true,
      },
    ];

    // A first round warms the server (JIT, caches, connection pools): otherwise the fresh figures are
    // those of a cold process and any later round looks faster.
    console.log("warm-up:");
    await measure(own, targets, 2);
    console.log(`fresh (${onPostgres ? "PostgreSQL" : "embedded PGlite"}):`);
    const fresh = await measure(own, targets);

    const ids = { org, project, busy, quiet, wf };
    const started = performance.now();
    if (own.target.databaseUrl) {
      const client = new pg.Client({ connectionString: own.target.databaseUrl });
      await client.connect();
      await client.query(seedSql(ids));
      await admin(own.target, ["usage-backfill"]);
      await printSizes(client);
      await client.end();
    } else {
      // The embedded database belongs to one process: the server stops while the seed is written.
      await own.server.stop();
      const db = new PGlite(path.join(own.target.dataDir, "pglite"));
      await db.exec(seedSql(ids));
      await db.close();
      // The usage rollups of the seeded history, as after an import (lib/usage/backfill.ts).
      await admin(own.target, ["usage-backfill"]);
      own.server = await startServer(own.target, { SEED_DEMO: "false", LOG_LEVEL: "warn" }, own.server.port);
    }
    console.log(
      `seeded ${MESSAGES.toLocaleString("en")} messages and the rest in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const seededCookie = await signIn(own, `${label}@example.com`);
    for (const t of targets) if (t.headers?.cookie) t.headers = { cookie: seededCookie };

    console.log("warm-up (seeded):");
    await measure(own, targets, 2, true);
    console.log("seeded:");
    const seeded = await measure(own, targets, DURATION, true);

    console.log(
      `\n| request | fresh req/s | seeded req/s | ratio | fresh p50 / p99 ms | seeded p50 / p99 ms |\n|---|---|---|---|---|---|`,
    );
    const misses: string[] = [];
    for (const t of targets) {
      const f = fresh.get(t.name)!;
      const s = seeded.get(t.name)!;
      const ratio = s.rps / f.rps;
      if (ratio < 0.8) misses.push(`${t.name}: ${ratio.toFixed(2)}x of fresh`);
      if (t.list && s.p99 > 300) misses.push(`${t.name}: p99 ${s.p99} ms`);
      console.log(
        `| ${t.name} | ${Math.round(f.rps)} | ${Math.round(s.rps)} | ${ratio.toFixed(2)} | ${f.p50} / ${f.p99} | ${s.p50} / ${s.p99} |`,
      );
    }
    console.log(misses.length ? `\nshort of the goal:\n  ${misses.join("\n  ")}` : "\nevery figure within the goal");
  } finally {
    await own.dispose();
  }
}
