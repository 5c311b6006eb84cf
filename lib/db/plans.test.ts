// Plan regression: every query of a hot or list path reaches its rows through a bounded index path,
// whatever the planner knows. An organization is seeded (by SQL) with tens of thousands of sessions,
// messages, runs, items, audit rows and deliveries, most of them on one agent; each service of the
// public API, the console API, the worker's sweeps and the metrics scrape is called with real
// parameters while its SQL is recorded; then each recorded statement is run under
// EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) twice: with no statistics (a fresh table before autovacuum's first
// ANALYZE) and after ANALYZE. A statement fails when its plan reads a large table sequentially,
// examines more than ROW_BOUND rows (rows returned by its scans plus rows they removed by filter) or
// touches more than PAGE_BOUND pages.
// Runs on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../audit";
import { encodeCursor } from "../pagination";
import { listDeliveries, getDelivery } from "../callbacks/service";
import { deliverDue } from "../callbacks/deliver";
import { recoverReplies } from "../conversations/recovery";
import {
  getMessage,
  getOrgSession,
  getSession,
  listMessages,
  listOrgMessages,
  listOrgSessions,
  listSessions,
} from "../conversations/sessions";
import { deleteExpiredUploads, listAgentFiles } from "../files/resumable";
import { PrismaClient, type Agent } from "../generated/prisma/client";
import { listKeyPage } from "../keys/service";
import { listAgents } from "../agents/service";
import { listSecretPage } from "../secrets/service";
import { scrapeMetrics } from "../observability/scrape";
import { overview } from "../orgs/overview";
import { getOrgRun, getRun, listOrgRuns, listRunItems, listRuns } from "../runs/service";
import { listApprovals } from "../runs/approvals";
import { queue } from "../queue";
import { retentionSetting, sweepRetention } from "../retention/service";
import { openTestDatabase } from "../../test-support/db";
import { failOrphanedRuns } from "../workflow/job";
import { failOrphanedBulkActions } from "../bulk/job";
import { waitForChanges } from "../reviews/changes";
import { setDatabase, type Database } from ".";

/** Most rows one statement may examine: a page is at most a few hundred; the seed is 100x that. */
const ROW_BOUND = 1_000;
/**
 * Most pages (8 KiB buffers) one statement may touch: a page of rows and the index pages above them
 * (the largest here, the approvals of a run with 20,000 items, touches about 300). An index
 * condition on a non-leading column skips entries without counting them as rows: this counts them.
 */
const PAGE_BOUND = 400;
/** A table with more rows than this must not be read sequentially. */
const LARGE_TABLE = 1_000;

const PAGE = { limit: 20, offset: 0 };

const SEED = {
  sessions: 40_000, // 34,000 on agent A1 (the issue's case: one agent with most of them)
  runs: 8_000,
  bigRunItems: 20_000,
  audit: 20_000,
  deliveries: 20_000,
  files: 5_000,
  longSession: 3_000, // messages of one session
  config: 3_000, // agents and Access Keys of ORG_C, secrets of OTHER
};

const ORG = "org_plans_a";
/** The audit row that is the n-th newest (rows are 1..SEED.audit, oldest first, one instant each). */
/** A cursor after `row`, whose `at` is the UTC wall time a raw query reads from a timestamp(3) column. */
const cursorOf = (row: { id: string; at: Date | string }) =>
  encodeCursor({ at: new Date(`${new Date(row.at).toISOString().slice(0, 23)}Z`), id: row.id });
const auditId = (nth: number) => `aud_${String(SEED.audit + 1 - nth).padStart(12, "0")}`;
const OTHER = "org_plans_b";
/** An organization with thousands of agents and keys (the management lists). */
const ORG_C = "org_plans_c";
const ids = {
  a1: "agt_plans_a1",
  a2: "agt_plans_a2",
  w1: "agt_plans_w1",
  b1: "agt_plans_b1",
  session: "sess_000000017000", // on A1
  message: "msg_000000034000", // its reply (messages 2n-1 and 2n belong to session n)
  run: "run_000000000007", // on W1, the run with many items
  longSession: "sess_plans_long", // on A1, SEED.longSession messages
};

/** The long lists whose page after their 2,000th row is planned. */
type DeepList =
  | "sessions"
  | "runs"
  | "audit"
  | "agentSessions"
  | "closedSessions"
  | "messages"
  | "agentRuns"
  | "agents"
  | "keys"
  | "secrets";

const seedSql = `
INSERT INTO organizations (id, name, retention_days) VALUES ('${ORG}', 'plans-a', 365), ('${OTHER}', 'plans-b', NULL);
INSERT INTO projects (id, organization_id, name) VALUES ('proj_plans_a', '${ORG}', 'Default'), ('proj_plans_b', '${OTHER}', 'Default');
INSERT INTO agents (id, organization_id, project_id, name, kind, runtime, workflow, updated_at) VALUES
  ('${ids.a1}', '${ORG}', 'proj_plans_a', 'a1', 'conversational', '{"type":"echo"}', NULL, now()),
  ('${ids.a2}', '${ORG}', 'proj_plans_a', 'a2', 'conversational', '{"type":"echo"}', NULL, now()),
  ('${ids.w1}', '${ORG}', 'proj_plans_a', 'w1', 'workflow', '{"type":"echo"}', '{"steps":[]}', now()),
  ('${ids.b1}', '${OTHER}', 'proj_plans_b', 'b1', 'conversational', '{"type":"echo"}', NULL, now());

-- Sessions over 60 days, newest last; 5 % drafts; A1 has 85 %, A2 10 %, the other organization 5 %.
INSERT INTO sessions (id, organization_id, project_id, agent_id, status, environment, created_at, last_message_at, message_count)
SELECT 'sess_' || lpad(i::text, 12, '0'),
  CASE WHEN i % 20 = 19 THEN '${OTHER}' ELSE '${ORG}' END,
  CASE WHEN i % 20 = 19 THEN 'proj_plans_b' ELSE 'proj_plans_a' END,
  CASE WHEN i % 20 = 19 THEN '${ids.b1}' WHEN i % 20 IN (17, 18) THEN '${ids.a2}' ELSE '${ids.a1}' END,
  CASE WHEN i % 7 = 0 THEN 'closed' ELSE 'active' END,
  (CASE WHEN i % 20 = 3 THEN 'draft' ELSE 'production' END)::"Environment",
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.sessions}),
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.sessions}) + interval '1 minute',
  2
FROM generate_series(1, ${SEED.sessions}) i;

-- Two messages per session: the user's and the reply (1 % errors; the 20 newest replies processing, leased ahead).
INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, created_at, completed_at, reply_to_id, lease_until, error)
SELECT 'msg_' || lpad((2 * s.n - 1 + r)::text, 12, '0'), s.id, s.agent_id, s.organization_id, s.project_id,
  CASE WHEN r = 0 THEN 'user' ELSE 'assistant' END,
  CASE WHEN r = 0 THEN 'completed' WHEN s.n > ${SEED.sessions} - 20 THEN 'processing' WHEN s.n % 100 = 0 THEN 'error' ELSE 'completed' END,
  'hello ' || s.n, s.created_at + r * interval '1 second', s.created_at + r * interval '2 seconds',
  CASE WHEN r = 1 THEN 'msg_' || lpad((2 * s.n - 1)::text, 12, '0') END,
  CASE WHEN r = 1 AND s.n > ${SEED.sessions} - 20 THEN now() + interval '1 hour' END,
  CASE WHEN r = 1 AND s.n % 100 = 0 THEN '{"message":"upstream failed"}'::jsonb END
FROM (SELECT id, agent_id, organization_id, project_id, created_at, substr(id, 6)::int AS n FROM sessions) s, generate_series(0, 1) r;

-- Runs of W1 over 60 days in every state; the live ones recently updated (no orphan for the sweep).
INSERT INTO runs (id, organization_id, project_id, agent_id, status, inputs, definition, items_total, created_at, updated_at, completed_at)
SELECT 'run_' || lpad(i::text, 12, '0'), '${ORG}', 'proj_plans_a', '${ids.w1}',
  (ARRAY['completed','completed','completed','failed','needs_review','cancelled','paused','completed'])[1 + i % 8],
  '{}', '{"steps":[]}', CASE WHEN i = 7 THEN ${SEED.bigRunItems} ELSE 2 END,
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.runs}),
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.runs}) + interval '1 minute',
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.runs}) + interval '1 minute'
FROM generate_series(1, ${SEED.runs}) i;
UPDATE runs SET status = 'needs_review' WHERE id = '${ids.run}';

INSERT INTO run_items (id, run_id, index, status, data, updated_at)
SELECT 'ri_' || lpad(i::text, 12, '0'), '${ids.run}', i,
  CASE WHEN i % 50 = 0 THEN 'needs_review' WHEN i % 10 = 0 THEN 'failed' ELSE 'completed' END, '{}', now()
FROM generate_series(0, ${SEED.bigRunItems} - 1) i;
INSERT INTO run_items (id, run_id, index, status, data, updated_at)
SELECT 'ri_x' || r.id || '_' || k, r.id, k, 'completed', '{}', now()
FROM runs r, generate_series(0, 1) k WHERE r.id <> '${ids.run}';

INSERT INTO audit_events (id, organization_id, actor_type, action, action_group, target_type, target_id, created_at)
SELECT 'aud_' || lpad(i::text, 12, '0'), '${ORG}', 'key',
  (ARRAY['run.completed','run.failed','key.created','agent.updated'])[1 + i % 4],
  (ARRAY['run','run','key','agent'])[1 + i % 4], 'run', 'run_' || lpad((i % ${SEED.runs} + 1)::text, 12, '0'),
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.audit})
FROM generate_series(1, ${SEED.audit}) i;

-- Deliveries: all settled but the 10 newest, due in an hour (nothing due for the poller now).
INSERT INTO callback_deliveries (id, organization_id, agent_id, subject_id, event, url, body, status, attempts, next_attempt_at, created_at, delivered_at)
SELECT 'dlv_' || lpad(i::text, 12, '0'), '${ORG}', '${ids.w1}', 'run_' || lpad((i % ${SEED.runs} + 1)::text, 12, '0'), 'run.completed',
  'https://example.com/hook', '{}',
  CASE WHEN i > ${SEED.deliveries} - 10 THEN 'pending' WHEN i % 25 = 0 THEN 'failed' ELSE 'delivered' END, 1,
  CASE WHEN i > ${SEED.deliveries} - 10 THEN now() + interval '1 hour' END,
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.deliveries}), now()
FROM generate_series(1, ${SEED.deliveries}) i;

INSERT INTO files (id, organization_id, agent_id, filename, content_type, size_bytes, storage_key, created_at)
SELECT 'fi_' || lpad(i::text, 12, '0'), '${ORG}', '${ids.w1}', 'f' || i || '.csv', 'text/csv', 10, 'k' || i,
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.files})
FROM generate_series(1, ${SEED.files}) i;
-- Finished uploads (their files), so the expiry sweep has history to skip.
INSERT INTO uploads (id, organization_id, agent_id, filename, content_type, size_bytes, file_id, created_at, finished_at)
SELECT 'up_' || substr(id, 4), organization_id, agent_id, filename, content_type, size_bytes, id, created_at, created_at FROM files;

-- One long conversation on A1 (its messages, every second for 50 minutes, 30 days ago).
INSERT INTO sessions (id, organization_id, project_id, agent_id, status, environment, created_at, last_message_at, message_count)
VALUES ('${ids.longSession}', '${ORG}', 'proj_plans_a', '${ids.a1}', 'active', 'production', now() - interval '30 days',
  now() - interval '30 days' + ${SEED.longSession} * interval '1 second', ${SEED.longSession});
INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, created_at, completed_at)
SELECT 'msg_long_' || lpad(i::text, 8, '0'), '${ids.longSession}', '${ids.a1}', '${ORG}', 'proj_plans_a',
  CASE WHEN i % 2 = 1 THEN 'user' ELSE 'assistant' END, 'completed', 'long ' || i,
  now() - interval '30 days' + i * interval '1 second', now() - interval '30 days' + i * interval '1 second'
FROM generate_series(1, ${SEED.longSession}) i;

-- The management lists' volume: thousands of agents (a tenth archived) and keys in ORG_C, secrets in
-- OTHER. (A secrets page reads its organization's agents for used_by, as many as it has: OTHER has one.)
INSERT INTO organizations (id, name) VALUES ('${ORG_C}', 'plans-c');
INSERT INTO projects (id, organization_id, name) VALUES ('proj_plans_c', '${ORG_C}', 'Default');
INSERT INTO agents (id, organization_id, project_id, name, kind, runtime, created_at, updated_at, archived_at)
SELECT 'agt_c' || lpad(i::text, 8, '0'), '${ORG_C}', 'proj_plans_c', 'c' || i, 'conversational', '{"type":"echo"}',
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.config}), now(), CASE WHEN i % 10 = 0 THEN now() END
FROM generate_series(1, ${SEED.config}) i;
INSERT INTO access_keys (id, organization_id, name, key_hash, start, permissions, created_at)
SELECT 'key_c' || lpad(i::text, 8, '0'), '${ORG_C}', 'k' || i, 'hash-c-' || i, 'ak_c', ARRAY['agents:invoke'],
  now() - interval '60 days' + (i * interval '60 days' / ${SEED.config})
FROM generate_series(1, ${SEED.config}) i;
INSERT INTO organization_secrets (id, organization_id, name, ciphertext, hint)
SELECT 'sec_b' || lpad(i::text, 8, '0'), '${OTHER}', 'secret-' || lpad(i::text, 5, '0'), 'sealed', ''
FROM generate_series(1, ${SEED.config}) i;
`;

interface Recorded {
  label: string;
  sql: string;
  params: unknown[];
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Rows Removed by Join Filter"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/**
 * What a plan reads: its sequential scans, the rows its scans examined, and the pages (buffers) it
 * touched, which also counts the index entries an index condition skipped over without a filter.
 */
function planCost(root: PlanNode): { seqScans: string[]; examined: number; pages: number; shape: string } {
  const seqScans: string[] = [];
  const nodes: string[] = [];
  let examined = 0;
  const walk = (node: PlanNode) => {
    nodes.push(
      `${node["Node Type"]}${node["Index Name"] ? ` ${node["Index Name"]}` : node["Relation Name"] ? ` ${node["Relation Name"]}` : ""}`,
    );
    if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) seqScans.push(node["Relation Name"]);
    if (node["Relation Name"]) {
      const loops = node["Actual Loops"] ?? 1;
      const removed = (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
      examined += ((node["Actual Rows"] ?? 0) + removed) * loops;
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root);
  const pages = (root["Shared Hit Blocks"] ?? 0) + (root["Shared Read Blocks"] ?? 0);
  return { seqScans, examined, pages, shape: nodes.join(" > ") };
}

describe("query plans at volume", () => {
  let db: Database & { dispose: () => Promise<void> };
  let recording: Recorded[] = [];
  let label = "";
  let recordingOn = false;
  let restoreQuery = () => {};
  const tableRows = new Map<string, number>();

  const explain = async (sql: string, params: unknown[]): Promise<PlanNode> => {
    // Writes are explained inside a transaction that is rolled back, on one connection: nothing of
    // them stays.
    const client = db.kind === "postgres" ? await db.pool!.connect() : undefined;
    const run = async (text: string, values: unknown[] = []) =>
      client ? (await client.query(text, values)).rows : await db.sql.query(text, values);
    await run("BEGIN");
    try {
      const rows = (await run(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params)) as { "QUERY PLAN": unknown }[];
      const raw = rows[0]!["QUERY PLAN"];
      const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      return plan[0]!.Plan;
    } finally {
      await run("ROLLBACK");
      client?.release();
    }
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    await db.sql.exec(seedSql);
    for (const table of [
      "sessions",
      "messages",
      "runs",
      "run_items",
      "audit_events",
      "callback_deliveries",
      "files",
      "uploads",
      "agents",
      "access_keys",
      "organization_secrets",
    ]) {
      const [{ n }] = (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)) as [{ n: number }];
      tableRows.set(table, n);
    }
    if (db.kind === "postgres") {
      // Every statement reaches PostgreSQL through a pg client (Prisma's adapter, raw SQL, the
      // metrics scrape's own connection): recorded there.
      const query = pg.Client.prototype.query;
      restoreQuery = () => (pg.Client.prototype.query = query);
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
        if (recordingOn) {
          const text = typeof first === "string" ? first : first.text;
          recording.push({ label, sql: text, params: (typeof first === "string" ? values : first.values) ?? [] });
        }
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query;
    } else {
      // PGlite is reached through Prisma's client and the raw SQL executor: both recorded.
      const prisma = new PrismaClient({
        adapter: new PrismaPGlite(db.pglite!),
        log: [{ emit: "event", level: "query" }],
      });
      prisma.$on("query", (e) => {
        if (recordingOn) recording.push({ label, sql: e.query, params: JSON.parse(e.params) as unknown[] });
      });
      const sql = db.sql;
      setDatabase({
        ...db,
        prisma,
        sql: {
          exec: sql.exec,
          query: (s, p) => {
            if (recordingOn) recording.push({ label, sql: s, params: p ?? [] });
            return sql.query(s, p);
          },
        },
      });
    }
    await queue(); // the job table the orphaned-runs sweep reads
  }, 600_000);

  afterAll(async () => {
    restoreQuery();
    setDatabase(db);
    await db?.dispose();
  });

  /** Runs each call while recording the statements it sends, labelled by the call's name. */
  const record = async (calls: Record<string, () => Promise<unknown>>) => {
    recording = [];
    recordingOn = true;
    try {
      for (const [name, call] of Object.entries(calls)) {
        label = name;
        await call();
      }
    } finally {
      recordingOn = false;
    }
    return recording.filter((r) => /^\s*(SELECT|UPDATE|DELETE|WITH)\b/i.test(r.sql));
  };

  it("seeds the volume it claims", () => {
    expect(tableRows.get("sessions")).toBe(SEED.sessions + 1);
    expect(tableRows.get("messages")).toBe(2 * SEED.sessions + SEED.longSession);
    expect(tableRows.get("agents")).toBe(SEED.config + 4);
    expect(tableRows.get("access_keys")).toBe(SEED.config);
    expect(tableRows.get("organization_secrets")).toBe(SEED.config);
    expect(tableRows.get("run_items")).toBe(SEED.bigRunItems + 2 * (SEED.runs - 1));
  });

  it("the plan checker sees a bad plan: a sequential count of messages is refused", async () => {
    const cost = planCost(await explain("SELECT count(*) FROM messages WHERE content <> ''", []));
    expect(cost.seqScans).toContain("messages");
    expect(cost.examined).toBeGreaterThan(ROW_BOUND);
    expect(cost.pages).toBeGreaterThan(PAGE_BOUND);
  });

  type Calls = Record<string, () => Promise<unknown>>;
  /** One row, one page of a few rows, a sweep that finds nothing due, or counters: any statistics. */
  const pointCalls = (a1: Agent, w1: Agent): Calls => ({
    "GET message": () => getMessage({ agent: a1, sessionId: ids.session, messageId: ids.message }),
    "GET session": () => getSession({ agent: a1, sessionId: ids.session }),
    "list messages": () =>
      listMessages({ agent: a1, sessionId: ids.session, query: { limit: 20, offset: 0 } as never }),
    "GET run": () => getRun({ agent: w1, runId: ids.run, baseUrl: "http://x" }),
    "list approvals": () => listApprovals({ agent: w1, runId: ids.run }),
    overview: () => overview({ organizationId: ORG }),
    "console session": () => getOrgSession({ organizationId: ORG, sessionId: ids.session }),
    "console messages": () => listOrgMessages({ organizationId: ORG, sessionId: ids.session, ...PAGE }),
    "console run": () => getOrgRun({ organizationId: ORG, runId: ids.run, baseUrl: "http://x" }),
    "console run items": () => listRunItems({ organizationId: ORG, runId: ids.run, ...PAGE }),
    "console delivery": () => getDelivery(ORG, "dlv_000000000100"),
    // The thread view's first live poll: the long session's marks, at once (no `since`).
    "live changes of a session": () =>
      waitForChanges({
        organizationId: ORG,
        userId: "usr_plans",
        topics: ["messages"],
        sessionId: ids.longSession,
        signal: new AbortController().signal,
      }),
    // The worker's sweeps (nothing is due in the seed: each looks and finds nothing).
    "reply recovery": () => recoverReplies(),
    "orphaned runs": () => failOrphanedRuns(),
    "orphaned bulk actions": () => failOrphanedBulkActions(),
    "upload expiry": () => deleteExpiredUploads(),
    "callback poller": () => deliverDue(),
    "metrics scrape": () => scrapeMetrics(),
    // The seed is 60 days old and the organization keeps a year: each delete looks and finds nothing.
    "retention sweep": () => sweepRetention(),
    // The console's retention page: the oldest record of each kind, and a preview that finds nothing.
    "retention setting": () => retentionSetting({ organizationId: ORG, previewDays: 365 }),
  });
  /**
   * Newest-first pages of an organization's or an agent's history: an index in the list's order
   * serves them once the planner knows the table's size, which autovacuum's ANALYZE tells it.
   */
  const listCalls = (a1: Agent, w1: Agent, deep: Record<DeepList, string>): Calls => ({
    "list sessions": () => listSessions({ agent: a1, query: { limit: 20 } as never }),
    "list sessions by status": () => listSessions({ agent: a1, query: { limit: 20, status: "closed" } as never }),
    "list runs": () => listRuns({ agent: w1, limit: 20 }),
    "list runs by status": () => listRuns({ agent: w1, limit: 20, status: "failed" }),
    "console sessions": () => listOrgSessions({ organizationId: ORG, environment: "all", ...PAGE }),
    "console sessions of an agent": () =>
      listOrgSessions({ organizationId: ORG, agentId: ids.a1, environment: "production", ...PAGE }),
    "console runs": () => listOrgRuns({ organizationId: ORG, ...PAGE }),
    "console runs by status": () => listOrgRuns({ organizationId: ORG, status: "failed", ...PAGE }),
    "console run items needing review": () =>
      listRunItems({ organizationId: ORG, runId: ids.run, status: "needs_review", ...PAGE }),
    "console audit": () => listAuditEvents({ organizationId: ORG, ...PAGE }),
    "console audit by action": () => listAuditEvents({ organizationId: ORG, action: "key.*", ...PAGE }),
    // Page 250 of 20: the cursor after the 5,000th newest row (keyset: an index range from there).
    "console audit, deep page by cursor": () => listAuditEvents({ organizationId: ORG, ...PAGE, cursor: deep.audit }),
    "console deliveries": () => listDeliveries(ORG, { limit: 20 }),
    "console failed deliveries": () => listDeliveries(ORG, { status: "failed", limit: 20 }),
    "console files": () => listAgentFiles({ organizationId: ORG, agentId: ids.w1, ...PAGE }),
    // The console lists' filters (docs/console.md, "List filters"): each a range of an index.
    "console sessions of an agent, any environment": () =>
      listOrgSessions({ organizationId: ORG, agentId: ids.a2, environment: "all", ...PAGE }),
    "console sessions by status": () =>
      listOrgSessions({ organizationId: ORG, status: "closed", environment: "all", ...PAGE }),
    "console sessions of a user": () =>
      listOrgSessions({ organizationId: ORG, userId: "user-1", environment: "all", ...PAGE }),
    "console draft sessions": () => listOrgSessions({ organizationId: ORG, environment: "draft", ...PAGE }),
    "console sessions in a month long ago": () =>
      listOrgSessions({
        organizationId: ORG,
        environment: "all",
        from: new Date(Date.now() - 50 * 86_400_000),
        to: new Date(Date.now() - 45 * 86_400_000),
        ...PAGE,
      }),
    "console runs of an agent": () => listOrgRuns({ organizationId: ORG, agentId: ids.w1, ...PAGE }),
    "console runs of a user": () => listOrgRuns({ organizationId: ORG, userId: "user-1", ...PAGE }),
    "console runs with errors": () => listOrgRuns({ organizationId: ORG, hasError: true, ...PAGE }),
    "console runs in a month long ago": () =>
      listOrgRuns({
        organizationId: ORG,
        from: new Date(Date.now() - 50 * 86_400_000),
        to: new Date(Date.now() - 45 * 86_400_000),
        ...PAGE,
      }),
    "console failed deliveries of an agent": () =>
      listDeliveries(ORG, { agent_id: ids.w1, status: "failed", limit: 20 }),
    "console deliveries with errors": () => listDeliveries(ORG, { has_error: true, limit: 20 }),
    "console deliveries in a month long ago": () =>
      listDeliveries(ORG, {
        from: new Date(Date.now() - 50 * 86_400_000),
        to: new Date(Date.now() - 45 * 86_400_000),
        limit: 20,
      }),
    "console audit in a month long ago": () =>
      listAuditEvents({
        organizationId: ORG,
        from: new Date(Date.now() - 50 * 86_400_000),
        to: new Date(Date.now() - 45 * 86_400_000),
        ...PAGE,
      }),
    // Deep pages by cursor: page after the 2,000th row of each long list.
    "console sessions, deep page by cursor": () =>
      listOrgSessions({ organizationId: ORG, environment: "all", ...PAGE, cursor: deep.sessions }),
    "console runs, deep page by cursor": () => listOrgRuns({ organizationId: ORG, ...PAGE, cursor: deep.runs }),
    "console run items, deep page by cursor": () =>
      listRunItems({ organizationId: ORG, runId: ids.run, ...PAGE, cursor: encodeCursor({ at: 15_000, id: "x" }) }),
    // The public lists' deep pages by cursor (after the 2,000th row of each; docs/api.md, Paging).
    "list sessions, deep page by cursor": () =>
      listSessions({ agent: a1, query: { limit: 20, cursor: deep.agentSessions } as never }),
    "list sessions by status, deep page by cursor": () =>
      listSessions({ agent: a1, query: { limit: 20, status: "closed", cursor: deep.closedSessions } as never }),
    "list messages, deep page by cursor": () =>
      listMessages({
        agent: a1,
        sessionId: ids.longSession,
        query: { limit: 20, offset: 0, cursor: deep.messages } as never,
      }),
    "list messages by role, deep page by cursor": () =>
      listMessages({
        agent: a1,
        sessionId: ids.longSession,
        query: { limit: 20, offset: 0, role: "user", cursor: deep.messages } as never,
      }),
    "list runs, deep page by cursor": () => listRuns({ agent: w1, limit: 20, cursor: deep.agentRuns }),
    "list runs by status, deep page by cursor": () =>
      listRuns({ agent: w1, limit: 20, status: "completed", cursor: deep.agentRuns }),
    // The management lists: a first page and a deep one.
    "management agents": () => listAgents({ organizationId: ORG_C, limit: 100 }),
    "management agents, deep page by cursor": () =>
      listAgents({ organizationId: ORG_C, limit: 100, cursor: deep.agents }),
    "management agents with archived, deep page by cursor": () =>
      listAgents({ organizationId: ORG_C, includeArchived: true, limit: 100, cursor: deep.agents }),
    "console agents": () => listAgents({ organizationId: ORG_C, includeArchived: true, limit: 20 }),
    "console agents, deep page by cursor": () =>
      listAgents({ organizationId: ORG_C, includeArchived: true, limit: 20, cursor: deep.agents }),
    "management keys": () => listKeyPage({ organizationId: ORG_C, limit: 100 }),
    "management keys, deep page by cursor": () => listKeyPage({ organizationId: ORG_C, limit: 100, cursor: deep.keys }),
    "management secrets": () => listSecretPage({ organizationId: OTHER, limit: 100 }),
    "management secrets, deep page by cursor": () =>
      listSecretPage({ organizationId: OTHER, limit: 100, cursor: deep.secrets }),
  });

  for (const statistics of ["no statistics", "after ANALYZE"] as const) {
    const scope = statistics === "no statistics" ? "every point query, sweep and counter" : "every hot and list query";
    it(`${scope} stays on a bounded index path (${statistics})`, async () => {
      if (statistics === "after ANALYZE") await db.sql.exec("ANALYZE");
      const agents = await db.prisma.agent.findMany({ where: { organizationId: ORG } });
      const [a1, w1] = [ids.a1, ids.w1].map((id) => agents.find((a) => a.id === id)!) as [Agent, Agent];
      // The cursors after the 2,000th row of the long lists, found before anything is recorded.
      const rowAt = async (sql: string, params: unknown[] = [ORG]) =>
        cursorOf((await db.sql.query<{ id: string; at: Date }>(sql, params))[0]!);
      const auditRow = await db.prisma.auditEvent.findUniqueOrThrow({ where: { id: auditId(5_000) } });
      const deep = {
        audit: encodeCursor({ at: auditRow.createdAt, id: auditRow.id }),
        sessions: await rowAt(
          "SELECT id, last_message_at AS at FROM sessions WHERE organization_id = $1 ORDER BY last_message_at DESC, id DESC OFFSET 2000 LIMIT 1",
        ),
        runs: await rowAt(
          "SELECT id, created_at AS at FROM runs WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET 2000 LIMIT 1",
        ),
        agentSessions: await rowAt(
          "SELECT id, last_message_at AS at FROM sessions WHERE agent_id = $1 AND environment = 'production' ORDER BY last_message_at DESC, id DESC OFFSET 2000 LIMIT 1",
          [ids.a1],
        ),
        closedSessions: await rowAt(
          "SELECT id, last_message_at AS at FROM sessions WHERE agent_id = $1 AND environment = 'production' AND status = 'closed' ORDER BY last_message_at DESC, id DESC OFFSET 2000 LIMIT 1",
          [ids.a1],
        ),
        messages: await rowAt(
          "SELECT id, created_at AS at FROM messages WHERE session_id = $1 ORDER BY created_at, id OFFSET 2000 LIMIT 1",
          [ids.longSession],
        ),
        agentRuns: await rowAt(
          "SELECT id, created_at AS at FROM runs WHERE agent_id = $1 ORDER BY created_at DESC, id DESC OFFSET 2000 LIMIT 1",
          [ids.w1],
        ),
        agents: await rowAt(
          "SELECT id, created_at AS at FROM agents WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET 2000 LIMIT 1",
          [ORG_C],
        ),
        keys: await rowAt(
          "SELECT id, created_at AS at FROM access_keys WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET 2000 LIMIT 1",
          [ORG_C],
        ),
        secrets: encodeCursor({ at: "secret-02000", id: "sec_b00002000" }),
      };
      const calls = { ...pointCalls(a1, w1), ...(statistics === "after ANALYZE" ? listCalls(a1, w1, deep) : {}) };
      const statements = await record(calls);
      const labels = new Set(statements.map((s) => s.label));
      expect(labels).toEqual(new Set(Object.keys(calls))); // each call sent at least one query

      const offenders: string[] = [];
      const shapes = new Map<string, string[]>();
      for (const s of statements) {
        const cost = planCost(await explain(s.sql, s.params));
        shapes.set(s.label, [...(shapes.get(s.label) ?? []), cost.shape]);
        const large = cost.seqScans.filter((t) => (tableRows.get(t) ?? 0) > LARGE_TABLE);
        if (large.length || cost.examined > ROW_BOUND || cost.pages > PAGE_BOUND) {
          offenders.push(
            `${s.label}: ${large.length ? `sequential scan of ${large.join(", ")}; ` : ""}` +
              `${cost.examined} rows examined, ${cost.pages} pages (${cost.shape})\n    ${s.sql.replace(/\s+/g, " ").slice(0, 300)}`,
          );
        }
      }
      expect(offenders).toEqual([]);
      if (statistics === "after ANALYZE") {
        // The public sessions list filtered by status reads its rows on the index of that filter and order.
        for (const label of ["list sessions by status", "list sessions by status, deep page by cursor"]) {
          expect(shapes.get(label)!.join(" | "), label).toContain(
            "sessions_agent_id_environment_status_last_message_at_id_idx",
          );
        }
      }
    }, 600_000);
  }
});
