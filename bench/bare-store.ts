// The SQL of the bare baseline server (bench/bare-server.ts): the statements the service runs for
// the benchmarked requests (lib/conversations/trigger.ts, replies.ts, sessions.ts; lib/auth and
// lib/agents for the key and the agent), written by hand over the bare driver (pg's Pool on
// PostgreSQL, the PGlite instance on the embedded database) instead of Prisma. The database is
// opened and migrated by lib/db, on a database of its own.
import { database } from "../lib/db";

type Row = Record<string, any>;
type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

export interface Seed {
  key: { id: string; hash: string; start: string; permissions: string[] };
  organizationId: string;
  projectId: string;
  agents: { id: string; name: string; kind: string; runtime: unknown }[];
}

export interface Agent {
  id: string;
  organization_id: string;
  project_id: string;
  kind: string;
  runtime: { type: string; url?: string; timeout_ms?: number; headers?: Record<string, string> };
}

export interface Reply {
  content: string;
  model: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface Accepted {
  sessionId: string;
  userMessageId: string;
  messageId: string;
  createdAt: Date;
}

/** The driver, as a query function and a transaction. */
async function driver(): Promise<{ query: Query; transaction<T>(fn: (q: Query) => Promise<T>): Promise<T> }> {
  const db = await database();
  if (db.kind === "pglite") {
    const pglite = db.pglite!;
    return {
      query: async (sql, params) => (await pglite.query<Row>(sql, params)).rows,
      transaction: (fn) =>
        pglite.transaction((tx) => fn(async (sql, params) => (await tx.query<Row>(sql, params)).rows)),
    };
  }
  const pool = db.pool!;
  return {
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
        await client.query("COMMIT");
        return result;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
  };
}

/** The reply's lease (REPLY_LEASE_SECONDS' default). */
const LEASE_MS = 30_000;

/** Timestamps as the service stores them: UTC in `timestamp(3)` columns. */
const ts = (d: Date) => d.toISOString();

export async function openBareStore(seed: Seed) {
  const db = await driver();
  // The rows the benchmark's requests need, with the ids the production server gave them.
  await db.query("INSERT INTO organizations (id, name) VALUES ($1, 'bench') ON CONFLICT DO NOTHING", [
    seed.organizationId,
  ]);
  await db.query("INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'default') ON CONFLICT DO NOTHING", [
    seed.projectId,
    seed.organizationId,
  ]);
  await db.query(
    `INSERT INTO access_keys (id, organization_id, name, key_hash, start, permissions)
     VALUES ($1, $2, 'bench', $3, $4, $5) ON CONFLICT DO NOTHING`,
    [seed.key.id, seed.organizationId, seed.key.hash, seed.key.start, seed.key.permissions],
  );
  for (const a of seed.agents) {
    await db.query(
      `INSERT INTO agents (id, organization_id, project_id, name, kind, runtime, updated_at)
       VALUES ($1, $2, $3, $4, $5::"AgentKind", $6::jsonb, now()) ON CONFLICT DO NOTHING`,
      [a.id, seed.organizationId, seed.projectId, a.name, a.kind, JSON.stringify(a.runtime)],
    );
  }

  return {
    async findKey(hash: string) {
      const [row] = await db.query(
        "SELECT id, organization_id, permissions, revoked_at FROM access_keys WHERE key_hash = $1",
        [hash],
      );
      return row as { id: string; organization_id: string; permissions: string[]; revoked_at: Date | null } | undefined;
    },

    async findAgent(id: string, organizationId: string) {
      const [row] = await db.query(
        "SELECT id, organization_id, project_id, kind, runtime FROM agents WHERE id = $1 AND organization_id = $2",
        [id, organizationId],
      );
      return row as Agent | undefined;
    },

    /** One transaction: the new session (counting both messages), the user message and the pending reply with its lease. */
    async accept(agent: Agent, ids: Omit<Accepted, "createdAt">, message: string, payload: unknown): Promise<Accepted> {
      const now = new Date();
      await db.transaction(async (q) => {
        await q(
          `INSERT INTO sessions (id, organization_id, project_id, agent_id, status, channel, environment, user_id,
             metadata, created_at, last_message_at, message_count)
           VALUES ($1, $2, $3, $4, 'active', 'webhook', 'production', '', '{}', $5, $5, 2)`,
          [ids.sessionId, agent.organization_id, agent.project_id, agent.id, ts(now)],
        );
        await q(
          `INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, content, payload,
             reply_to_id, created_at, completed_at, lease_until)
           VALUES ($1, $3, $4, $5, $6, 'user', 'completed', $7, $8::jsonb, NULL, $9, $9, NULL),
                  ($2, $3, $4, $5, $6, 'assistant', 'processing', '', NULL, $1, $10, NULL, $11)`,
          [
            ids.userMessageId,
            ids.messageId,
            ids.sessionId,
            agent.id,
            agent.organization_id,
            agent.project_id,
            message,
            JSON.stringify(payload),
            ts(now),
            ts(new Date(now.getTime() + 1)),
            ts(new Date(now.getTime() + LEASE_MS)),
          ],
        );
      });
      return { ...ids, createdAt: now };
    },

    /** The reply's final write: the conditional processing -> completed move and the session's usage. */
    async complete(accepted: Accepted, reply: Reply) {
      const completedAt = new Date();
      const u = reply.usage;
      await db.transaction(async (q) => {
        const moved = await q(
          `UPDATE messages SET status = 'completed', content = $2, model = $3, prompt_tokens = $4,
             completion_tokens = $5, total_tokens = $6, cost = 0, processing_time_ms = $7, completed_at = $8,
             lease_until = NULL
           WHERE id = $1 AND status = 'processing' RETURNING id`,
          [
            accepted.messageId,
            reply.content,
            reply.model,
            u.prompt_tokens,
            u.completion_tokens,
            u.total_tokens,
            completedAt.getTime() - accepted.createdAt.getTime(),
            ts(completedAt),
          ],
        );
        if (moved.length !== 1) return;
        await q(
          `UPDATE sessions SET prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3,
             total_tokens = total_tokens + $4, cost = cost + 0 WHERE id = $1`,
          [accepted.sessionId, u.prompt_tokens, u.completion_tokens, u.total_tokens],
        );
      });
      return completedAt;
    },

    /** One message of one of the agent's production sessions. */
    async message(agent: Agent, sessionId: string, messageId: string) {
      const [row] = await db.query(
        `SELECT m.id, m.session_id, m.agent_id, m.organization_id, m.project_id, m.role, m.status, m.content, m.model,
           m.prompt_tokens, m.completion_tokens, m.total_tokens, m.cost, m.processing_time_ms, m.error, m.created_at
         FROM messages m JOIN sessions s ON s.id = m.session_id
         WHERE m.id = $1 AND m.session_id = $2 AND s.agent_id = $3 AND s.organization_id = $4
           AND s.environment = 'production'`,
        [messageId, sessionId, agent.id, agent.organization_id],
      );
      return row;
    },
  };
}

export type BareStore = Awaited<ReturnType<typeof openBareStore>>;
