// The agent versions migration (docs/decisions.md, 52; docs/deploy.md, Upgrading) on a database of
// the previous release with data in it: every agent becomes version 1, published, with its
// configuration; existing sessions, replies and runs read version 1 at once; and the previous
// release's own writes (its INSERTs name none of the new columns) keep working beside the new one.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshPostgresDatabase } from "../../test-support/postgres";
import { applyMigrations, loadMigrations, type SqlExecutor } from "./migrate";

const VERSIONS = "20261128123057_agent_versions";
let db: SqlExecutor;
let dispose: () => Promise<void>;

/** A database with no migration applied: in-memory PGlite, or a new PostgreSQL database (one connection). */
async function emptyDatabase(): Promise<{ sql: SqlExecutor; dispose: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    return {
      sql: {
        exec: async (s) => void (await client.query(s)),
        query: async (s, p) => (await client.query(s, p as unknown[])).rows,
      },
      dispose: async () => {
        await client.end();
        await fresh.drop();
      },
    };
  }
  const lite = new PGlite();
  return {
    sql: {
      exec: async (s) => void (await lite.exec(s)),
      query: async (s, p) => (await lite.query(s, p as unknown[])).rows as never[],
    },
    dispose: () => lite.close(),
  };
}

/** What the previous release writes, column for column as its INSERTs name them. */
const OLD_RELEASE = {
  agent: (id: string, runtime: unknown, callback: string | null) =>
    db.query(
      `INSERT INTO agents (id, organization_id, project_id, name, kind, runtime, callback_url, updated_at)
       VALUES ($1, 'org_m', 'proj_m', $1, 'conversational', $2::jsonb, $3, now())`,
      [id, JSON.stringify(runtime), callback],
    ),
  session: (id: string, agent: string) =>
    db.query(`INSERT INTO sessions (id, organization_id, project_id, agent_id) VALUES ($1, 'org_m', 'proj_m', $2)`, [
      id,
      agent,
    ]),
  reply: (id: string, session: string, agent: string) =>
    db.query(
      `INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status)
       VALUES ($1, $2, $3, 'org_m', 'proj_m', 'assistant', 'completed')`,
      [id, session, agent],
    ),
  run: (id: string, agent: string) =>
    db.query(
      `INSERT INTO runs (id, organization_id, project_id, agent_id, inputs, definition, updated_at)
       VALUES ($1, 'org_m', 'proj_m', $2, '{}', '{"steps": []}', now())`,
      [id, agent],
    ),
};

beforeAll(async () => {
  ({ sql: db, dispose } = await emptyDatabase());
  const all = loadMigrations();
  const at = all.findIndex((m) => m.name === VERSIONS);
  expect(at).toBeGreaterThan(0);
  // The previous release's schema, and its data.
  await applyMigrations(db, all.slice(0, at));
  await db.query(`INSERT INTO organizations (id, name) VALUES ('org_m', 'migration')`);
  await db.query(`INSERT INTO projects (id, organization_id, name) VALUES ('proj_m', 'org_m', 'Default')`);
  await OLD_RELEASE.agent("agt_old", { type: "echo", delay_ms: 3 }, "https://hooks.example.com/old");
  await OLD_RELEASE.session("sess_old", "agt_old");
  await OLD_RELEASE.reply("msg_old", "sess_old", "agt_old");
  await OLD_RELEASE.run("run_old", "agt_old");
  // This release's migration.
  expect(await applyMigrations(db, all)).toEqual(all.slice(at).map((m) => m.name));
});
afterAll(() => dispose());

describe("the agent versions migration", () => {
  it("makes every existing agent's configuration its version 1, published", async () => {
    const [agent] = await db.query<Record<string, unknown>>(
      `SELECT published_version, draft_version, previous_version, latest_version, rollout FROM agents WHERE id = 'agt_old'`,
    );
    expect(agent).toEqual({
      published_version: 1,
      draft_version: null,
      previous_version: null,
      latest_version: 1,
      rollout: null,
    });
    const versions = await db.query<Record<string, unknown>>(
      `SELECT version, runtime, callback_url, actor_type, published_at IS NOT NULL AS published FROM agent_versions WHERE agent_id = 'agt_old'`,
    );
    expect(versions).toEqual([
      {
        version: 1,
        runtime: { type: "echo", delay_ms: 3 },
        callback_url: "https://hooks.example.com/old",
        actor_type: "system",
        published: true,
      },
    ]);
  });

  it("reads version 1 on every existing session, reply and run, without rewriting them", async () => {
    const rows = await db.query<{ t: string; v: number | null }>(
      `SELECT 's' AS t, agent_version AS v FROM sessions UNION ALL SELECT 'm', agent_version FROM messages
       UNION ALL SELECT 'r', agent_version FROM runs ORDER BY 1`,
    );
    expect(rows).toEqual([
      { t: "m", v: 1 },
      { t: "r", v: 1 },
      { t: "s", v: 1 },
    ]);
  });

  it("keeps the previous release's writes working: its rows read no version (null), its agents version 1", async () => {
    await OLD_RELEASE.agent("agt_during", { type: "echo" }, null);
    await OLD_RELEASE.session("sess_during", "agt_during");
    await OLD_RELEASE.reply("msg_during", "sess_during", "agt_during");
    await OLD_RELEASE.run("run_during", "agt_during");
    const [agent] = await db.query(`SELECT published_version, latest_version FROM agents WHERE id = 'agt_during'`);
    expect(agent).toEqual({ published_version: 1, latest_version: 1 });
    const rows = await db.query<{ v: number | null }>(
      `SELECT agent_version AS v FROM sessions WHERE id = 'sess_during' UNION ALL
       SELECT agent_version FROM messages WHERE id = 'msg_during' UNION ALL SELECT agent_version FROM runs WHERE id = 'run_during'`,
    );
    expect(rows).toEqual([{ v: null }, { v: null }, { v: null }]);
  });
});
