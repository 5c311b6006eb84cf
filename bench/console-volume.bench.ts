// The console at volume (docs/benchmarks.md "console-volume"): search, the console's lists and the
// usage charts' reads (rollups made by `admin usage-backfill` after the seed) on one
// organization with BENCH_CONSOLE_MESSAGES messages (default 100,000; the goal's size, 1,000,000,
// with BENCH_CONSOLE_FULL=1), a tenth as many runs and as many run items as messages. The seed is
// SQL (INSERT ... SELECT generate_series, counter triggers off, counters backfilled, ANALYZE).
// Each request is sent BENCH_CONSOLE_SAMPLES times (default 40) one after the other, after a
// warm-up, and its p50 and p95 are held to the goal: 300 ms at p95. PostgreSQL with
// TEST_DATABASE_URL (an admin URL: a fresh database is made and dropped), else the embedded
// database. Needs a production build.
//   npm run bench -- console-volume
//   BENCH_CONSOLE_FULL=1 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- console-volume
import { PGlite } from "@electric-sql/pglite";
import path from "node:path";
import pg from "pg";
import { admin, ownServer, startServer, type OwnServer } from "../e2e/api/server";

const MESSAGES = Number(process.env.BENCH_CONSOLE_MESSAGES ?? (process.env.BENCH_CONSOLE_FULL ? 1_000_000 : 100_000));
const SAMPLES = Number(process.env.BENCH_CONSOLE_SAMPLES ?? 40);
const GOAL_MS = 300;
const PASSWORD = "correct horse battery";
const WORDS = ["refund", "delivery", "invoice", "login", "upgrade"];

/** The seed for organization `org`: a conversational agent `chat` and a workflow agent `wf`. */
export function seedSql(o: { org: string; project: string; chat: string; wf: string }, messages = MESSAGES) {
  const sessions = messages / 4; // 4 messages each
  const runs = messages / 10;
  const itemsPerRun = 10; // as many items as messages
  const users = Math.max(100, sessions / 10);
  const span = "interval '180 days'";
  const at = (i: string, n: number) => `now() - ${span} + (${i} * ${span} / ${n})`;
  const id = (prefix: string, i: string) => `'${prefix}_' || lpad((${i})::text, 22, '0')`;
  const words = `(ARRAY[${WORDS.map((w) => `'${w}'`).join(",")}])`;
  return `
SET session_replication_role = replica;
INSERT INTO sessions (id, organization_id, project_id, agent_id, status, user_id, metadata, created_at, last_message_at, message_count)
SELECT ${id("sess", "i")}, '${o.org}', '${o.project}', '${o.chat}', 'active', 'user-' || (i % ${users}),
  jsonb_build_object('order_id', 'o-' || i, 'plan', (ARRAY['free','pro','team'])[1 + i % 3]),
  ${at("i", sessions)}, ${at("i", sessions)} + interval '4 seconds', 4
FROM generate_series(1, ${sessions}) i;

INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, created_at, completed_at)
SELECT ${id("msg", "4 * (s - 1) + r")}, ${id("sess", "s")}, '${o.chat}', '${o.org}', '${o.project}',
  CASE WHEN r % 2 = 1 THEN 'user' ELSE 'assistant' END, 'completed',
  'about my ' || ${words}[1 + (s + r) % 5] || ' number tok' || (4 * (s - 1) + r) || ', please look at it soon',
  ${at("s", sessions)} + r * interval '1 second', ${at("s", sessions)} + r * interval '1 second'
FROM generate_series(1, ${sessions}) s, generate_series(1, 4) r;

INSERT INTO runs (id, organization_id, project_id, agent_id, status, user_id, inputs, definition, items_total, items_ready, created_at, updated_at, completed_at)
SELECT ${id("run", "i")}, '${o.org}', '${o.project}', '${o.wf}',
  (ARRAY['completed','completed','completed','failed','needs_review','cancelled','completed','completed'])[1 + i % 8],
  'user-' || (i % ${users}), jsonb_build_object('user_id', 'user-' || (i % ${users}), 'order_id', 'o-' || i, 'rows', '[]'::jsonb),
  '{"steps":[]}', ${itemsPerRun}, true, ${at("i", runs)}, ${at("i", runs)} + interval '1 minute', ${at("i", runs)} + interval '1 minute'
FROM generate_series(1, ${runs}) i;

INSERT INTO run_items (id, run_id, index, status, data, created_at, updated_at)
SELECT 'item_' || lpad((${itemsPerRun} * (r - 1) + k)::text, 22, '0'), ${id("run", "r")}, k, 'completed',
  jsonb_build_object('text', 'row about ' || ${words}[1 + (r + k) % 5] || ' item' || (${itemsPerRun} * (r - 1) + k)),
  ${at("r", runs)}, ${at("r", runs)}
FROM generate_series(1, ${runs}) r, generate_series(0, ${itemsPerRun - 1}) k;

INSERT INTO audit_events (id, organization_id, actor_type, actor_id, actor_label, action, action_group, target_type, target_id, created_at)
SELECT ${id("evt", "i")}, '${o.org}', 'access_key', 'key_bench', 'bench key', 'run.trigger', 'run', 'run', ${id("run", "i")}, ${at("i", runs)}
FROM generate_series(1, ${runs}) i;

INSERT INTO callback_deliveries (id, organization_id, agent_id, subject_id, event, url, body, status, attempts, created_at, delivered_at)
SELECT ${id("dlv", "i")}, '${o.org}', '${o.wf}', ${id("run", "i")}, 'run.completed', 'https://example.com/hook', '{}',
  CASE WHEN i % 25 = 0 THEN 'failed' ELSE 'delivered' END, 1, ${at("i", runs)}, ${at("i", runs)}
FROM generate_series(1, ${runs}) i;

SET session_replication_role = DEFAULT;
INSERT INTO run_status_counts (organization_id, status, slot, n)
SELECT organization_id, status, abs(hashtext(id)) % 8, count(*) FROM runs WHERE id LIKE 'run\\_0%' GROUP BY 1, 2, 3
ON CONFLICT (organization_id, status, slot) DO UPDATE SET n = run_status_counts.n + EXCLUDED.n;
INSERT INTO session_counts_hourly (organization_id, environment, hour, slot, n)
SELECT organization_id, environment, date_trunc('hour', created_at), abs(hashtext(id)) % 8, count(*)
FROM sessions WHERE id LIKE 'sess\\_0%' GROUP BY 1, 2, 3, 4
ON CONFLICT (organization_id, environment, hour, slot) DO UPDATE SET n = session_counts_hourly.n + EXCLUDED.n;

ANALYZE;`;
}

const pad = (prefix: string, n: number) => `${prefix}_${String(n).padStart(22, "0")}`;

interface Target {
  name: string;
  path: string;
  /** Measured on the page after this many pages, walked by `next_cursor` as the console does. */
  deep?: number;
}

async function deepPath(own: OwnServer, cookie: string, t: Target): Promise<string> {
  let cursor: string | null = null;
  for (let i = 0; i < t.deep!; i++) {
    const sep = t.path.includes("?") ? "&" : "?";
    const url = `${own.server.baseUrl}${t.path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await fetch(url, { headers: { cookie } });
    const body = (await res.json()) as { next_cursor?: string | null };
    if (res.status !== 200 || !body.next_cursor) throw new Error(`${t.name}: no page ${i + 2} (${res.status})`);
    cursor = body.next_cursor;
  }
  return `${t.path}${t.path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor!)}`;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function sample(own: OwnServer, cookie: string, p: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(`${own.server.baseUrl}${p}`, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p}: ${res.status}: the benchmark measures answers only`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
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

export default async function consoleVolumeBench() {
  const label = "console-volume";
  const own = await ownServer(label, { LOG_LEVEL: "warn" });
  try {
    const { organization_id: org, project_id: project } = own.org;
    const chat = await own.createAgent({ name: "chat", kind: "conversational", runtime: { type: "echo" } });
    const wf = await own.createAgent({
      name: "wf",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true }, user_id: { type: "string" } },
        items: { from: "rows" },
        steps: [{ id: "t", type: "transform", expression: "$" }],
      },
    });
    const started = performance.now();
    const sql = seedSql({ org, project, chat, wf });
    if (own.target.databaseUrl) {
      const client = new pg.Client({ connectionString: own.target.databaseUrl });
      await client.connect();
      await client.query(sql);
      await client.end();
      await admin(own.target, ["usage-backfill"]); // the rollups of the seeded history, as after an import
    } else {
      // The embedded database belongs to one process: the server stops while the seed is written.
      await own.server.stop();
      const db = new PGlite(path.join(own.target.dataDir, "pglite"));
      await db.exec(sql);
      await db.close();
      await admin(own.target, ["usage-backfill"]);
      own.server = await startServer(own.target, { SEED_DEMO: "false", LOG_LEVEL: "warn" }, own.server.port);
    }
    const runs = MESSAGES / 10;
    console.log(
      `seeded ${MESSAGES.toLocaleString("en")} messages, ${runs.toLocaleString("en")} runs, ${MESSAGES.toLocaleString("en")} run items on ${own.target.databaseUrl ? "PostgreSQL" : "embedded PGlite"} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const cookie = await signIn(own, `${label}@example.com`);
    const q = (text: string) => `/api/v1/organizations/${org}/search?q=${encodeURIComponent(text)}`;
    const mid = Math.floor(MESSAGES / 2);
    // A 30-day window in the middle of the seed's 180 days, as the console's date filters send it.
    const day = 24 * 3600 * 1000;
    const window = `from=${new Date(Date.now() - 100 * day).toISOString()}&to=${new Date(Date.now() - 70 * day).toISOString()}`;
    const usage = (days: number, groupBy: string) =>
      `/api/v1/organizations/${org}/usage?from=${new Date(Date.now() - days * day).toISOString()}&group_by=${groupBy}`;
    const targets: Target[] = [
      { name: "search: exact session id", path: q(pad("sess", Math.floor(MESSAGES / 8))) },
      { name: "search: exact message id", path: q(pad("msg", mid)) },
      { name: "search: id prefix (10 runs)", path: q(pad("run", Math.floor(runs / 2)).slice(0, -1)) },
      { name: "search: end-user id", path: q("user-42") },
      { name: "search: field:value", path: q(`order_id:o-${Math.floor(runs / 3)}`) },
      { name: "search: free text, rare word", path: q(`tok${mid}`) },
      { name: "search: free text, common word", path: q("refund") },
      { name: "search: nothing found", path: q("zzzznotthere") },
      { name: "user timeline", path: `/api/v1/organizations/${org}/users/user-42/timeline` },
      { name: "sessions, page 1", path: `/api/v1/organizations/${org}/sessions?limit=50` },
      { name: "sessions, page 41", path: `/api/v1/organizations/${org}/sessions?limit=50`, deep: 40 },
      { name: "runs, page 1", path: `/api/v1/organizations/${org}/runs?limit=50` },
      { name: "runs, page 41", path: `/api/v1/organizations/${org}/runs?limit=50`, deep: 40 },
      {
        name: "runs, status failed, page 41",
        path: `/api/v1/organizations/${org}/runs?limit=50&status=failed`,
        deep: 40,
      },
      { name: "runs, has error", path: `/api/v1/organizations/${org}/runs?limit=50&has_error=true` },
      { name: "runs, end user", path: `/api/v1/organizations/${org}/runs?limit=50&user_id=user-42` },
      { name: "runs, agent + 30 days", path: `/api/v1/organizations/${org}/runs?limit=50&agent_id=${wf}&${window}` },
      { name: "sessions, end user", path: `/api/v1/organizations/${org}/sessions?limit=50&user_id=user-42` },
      {
        name: "sessions, 30 days, page 41",
        path: `/api/v1/organizations/${org}/sessions?limit=50&${window}`,
        deep: 40,
      },
      { name: "deliveries, page 1", path: `/api/v1/organizations/${org}/deliveries?limit=50` },
      { name: "deliveries, has error", path: `/api/v1/organizations/${org}/deliveries?limit=50&has_error=true` },
      { name: "deliveries, page 41", path: `/api/v1/organizations/${org}/deliveries?limit=50`, deep: 40 },
      { name: "audit, page 1", path: `/api/v1/organizations/${org}/audit?limit=50` },
      { name: "audit, page 41", path: `/api/v1/organizations/${org}/audit?limit=50`, deep: 40 },
      // The usage charts' reads (components/console/usage-window.ts USAGE_RANGES), from the hourly rollups.
      { name: "usage, 24 hours by hour", path: usage(1, "hour") },
      { name: "usage, 7 days by hour", path: usage(7, "hour") },
      { name: "usage, 30 days by day", path: usage(30, "day") },
      { name: "usage, one agent, 7 days by hour", path: `${usage(7, "hour")}&agent_id=${chat}` },
      { name: "usage, 30 days by hour (API's largest)", path: usage(30, "hour") },
    ];
    const rows: string[] = [];
    const misses: string[] = [];
    for (const t of targets) {
      const p = t.deep ? await deepPath(own, cookie, t) : t.path;
      await sample(own, cookie, p, 5); // warm-up
      const times = await sample(own, cookie, p, SAMPLES);
      const p50 = percentile(times, 0.5);
      const p95 = percentile(times, 0.95);
      if (p95 > GOAL_MS) misses.push(`${t.name}: p95 ${p95.toFixed(0)} ms`);
      rows.push(`| ${t.name} | ${p50.toFixed(0)} | ${p95.toFixed(0)} | ${p95 <= GOAL_MS ? "yes" : "**no**"} |`);
      console.log(`  ${t.name}: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`);
    }
    console.log(`\n| request | p50 ms | p95 ms | p95 < ${GOAL_MS} ms |\n|---|---|---|---|\n${rows.join("\n")}`);
    console.log(misses.length ? `\nshort of the goal:\n  ${misses.join("\n  ")}` : "\nevery figure within the goal");
  } finally {
    await own.dispose();
  }
}
