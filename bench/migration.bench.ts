// npm run bench -- migration: the agent versions migration (docs/decisions.md, 52) on a PostgreSQL
// database of the previous release holding 1,000,000 messages, while triggers of the previous
// release keep writing (a session and its two messages per trigger, as its trigger's statement does,
// on four connections). Prints how long the migration took and the triggers' latency before and
// during it: a migration that rewrote or long-locked `messages` would stall them for its duration.
// Needs TEST_DATABASE_URL (a server where databases can be created); skipped otherwise.
import { performance } from "node:perf_hooks";
import pg from "pg";
import { applyMigrations, loadMigrations } from "../lib/db/migrate";
import { createFreshPostgresDatabase } from "../test-support/postgres";

const VERSIONS = "20261128123057_agent_versions";
const MESSAGES = Number(process.env.MIGRATION_BENCH_MESSAGES ?? 1_000_000);
const WRITERS = 4;

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export default async function migrationBench() {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    console.log("skipped: set TEST_DATABASE_URL (PostgreSQL) to measure the migration on 1M messages");
    return;
  }
  const fresh = await createFreshPostgresDatabase(admin);
  const pool = new pg.Pool({ connectionString: fresh.url, max: WRITERS + 2 });
  const client = await pool.connect();
  const sql = {
    exec: async (s: string) => void (await client.query(s)),
    query: async <T>(s: string, p?: unknown[]) => (await client.query(s, p as unknown[])).rows as T[],
  };
  try {
    const all = loadMigrations();
    const at = all.findIndex((m) => m.name === VERSIONS);
    await applyMigrations(sql, all.slice(0, at));
    const seeded = performance.now();
    await sql.exec(`
      INSERT INTO organizations (id, name) VALUES ('org_b', 'bench');
      INSERT INTO projects (id, organization_id, name) VALUES ('proj_b', 'org_b', 'Default');
      INSERT INTO agents (id, organization_id, project_id, name, kind, runtime, updated_at)
        SELECT 'agt_' || g, 'org_b', 'proj_b', 'agent ' || g, 'conversational', '{"type":"echo"}', now() FROM generate_series(1, 50) g;
      INSERT INTO sessions (id, organization_id, project_id, agent_id, message_count, created_at, last_message_at)
        SELECT 'sess_' || g, 'org_b', 'proj_b', 'agt_' || (g % 50 + 1), 10, now(), now() FROM generate_series(1, ${MESSAGES / 10}) g;
      INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, created_at)
        SELECT 'msg_' || g, 'sess_' || (g % ${MESSAGES / 10} + 1), 'agt_' || ((g % ${MESSAGES / 10} + 1) % 50 + 1), 'org_b',
          'proj_b', CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END, 'completed', 'message text ' || g, now()
        FROM generate_series(1, ${MESSAGES}) g;
      INSERT INTO runs (id, organization_id, project_id, agent_id, inputs, definition, updated_at)
        SELECT 'run_' || g, 'org_b', 'proj_b', 'agt_1', '{}', '{"steps":[]}', now() FROM generate_series(1, 30000) g;
      ANALYZE;`);
    console.log(`seeded ${MESSAGES.toLocaleString("en")} messages in ${Math.round(performance.now() - seeded)} ms`);

    // The previous release's trigger, as one statement: a new session and its two messages.
    let n = 0;
    type Phase = "before" | "during" | "after";
    let phase = "before" as Phase;
    const latency: Record<Phase, number[]> = { before: [], during: [], after: [] };
    const errors: Record<Phase, string[]> = { before: [], during: [], after: [] };
    let stop = false;
    const writer = async () => {
      const c = await pool.connect();
      try {
        while (!stop) {
          const i = n++;
          const t0 = performance.now();
          const p = phase;
          const failed = (e: Error) => void errors[p].push(e.message);
          await c
            .query(
              `WITH s AS (INSERT INTO sessions (id, organization_id, project_id, agent_id, message_count)
               VALUES ($1, 'org_b', 'proj_b', 'agt_1', 2) RETURNING id)
             INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content)
               SELECT $2, s.id, 'agt_1', 'org_b', 'proj_b', 'user', 'completed', 'hi' FROM s UNION ALL
               SELECT $3, s.id, 'agt_1', 'org_b', 'proj_b', 'assistant', 'processing', '' FROM s`,
              [`sess_w${i}`, `msg_wu${i}`, `msg_wa${i}`],
            )
            .then(() => latency[p].push(performance.now() - t0), failed);
        }
      } finally {
        c.release();
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await new Promise((r) => setTimeout(r, 3_000));
    phase = "during";
    const t0 = performance.now();
    const applied = await applyMigrations(sql, all);
    const ms = performance.now() - t0;
    phase = "after";
    await new Promise((r) => setTimeout(r, 2_000));
    stop = true;
    await Promise.all(writers);
    const [check] = await sql.query<{ v1: number; versions: number }>(
      `SELECT (SELECT count(*) FROM messages WHERE agent_version = 1)::int AS v1, (SELECT count(*) FROM agent_versions)::int AS versions`,
    );
    console.log(
      `migration ${applied.join(", ")}: ${Math.round(ms)} ms; messages reading version 1: ${check!.v1.toLocaleString("en")}; agent_versions rows: ${check!.versions}`,
    );
    console.log("| phase | triggers written | failed | p50 ms | p99 ms | max ms |");
    console.log("|---|---|---|---|---|---|");
    for (const p of ["before", "during", "after"] as const) {
      const xs = latency[p];
      const f = (v: number) => v.toFixed(1);
      console.log(
        `| ${p} | ${xs.length} | ${errors[p].length} | ${f(quantile(xs, 0.5))} | ${f(quantile(xs, 0.99))} | ${f(Math.max(...xs))} |`,
      );
    }
    for (const e of new Set([...errors.before, ...errors.during, ...errors.after])) console.log(`failed: ${e}`);
  } finally {
    client.release();
    await pool.end();
    await fresh.drop();
  }
}
