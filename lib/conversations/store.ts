// The writes of the reply hot path, each one SQL statement: accepting a trigger (session, user
// message, pending reply, counters) and storing a reply (message and session counters). One
// statement is atomic by itself and holds a connection for one round trip only; an interactive
// transaction would hold it across several while the process serves other requests, and under
// load callers waited for connections (measured: "Unable to start a transaction in the given time").
import { MESSAGE_CALLBACK_CTE } from "../callbacks/events";
import { nudgeDeliverer } from "../callbacks/service";
import { database } from "../db";
import { batcherPerDatabase } from "../db/batch";
import { newId } from "../ids";
import type { Message } from "../generated/prisma/client";
import { usage, type TokenUsage } from "../runtime/types";
import { tokenUsage } from "./records";

/** timestamp(3) columns hold UTC wall time (as Prisma writes them): send ISO strings, cast in SQL. */
const at = (d: Date) => d.toISOString();

const MESSAGE_COLUMNS = `id, session_id, agent_id, organization_id, project_id, role, status, content, payload,
  created_at, completed_at, reply_to_id, lease_until, callback_url, access_key_id, agent_version`;

/**
 * The two messages of a trigger, selected from the session row `s` (none when it does not exist).
 * Parameters: $1 session, $2 organization, $3 project, $4 agent, $5 time, $6 user message id,
 * $7 content, $8 payload, $9 reply id, $10 reply time, $11 lease; `callback` is the SQL of the
 * reply's callback_url, `key` the parameter of the user message's access_key_id, `version` the SQL
 * of the agent version that produces the reply.
 */
const messagesFromS = (callback: string, key: string, version: string) => `
INSERT INTO messages (${MESSAGE_COLUMNS})
  SELECT $6, s.id, $4, $2, $3, 'user', 'completed', $7, $8::jsonb, $5::timestamp(3), $5::timestamp(3), NULL, NULL, NULL,
    ${key}::text, NULL FROM s
  UNION ALL
  SELECT $9, s.id, $4, $2, $3, 'assistant', 'processing', '', NULL, $10::timestamp(3), NULL, $6, $11::timestamp(3),
    ${callback}, NULL, ${version} FROM s
RETURNING id, agent_version AS "agentVersion"`;

/** $12 channel, $13 user_id, $14 environment, $15 metadata, $16 callback_url, $17 access_key_id, $18 agent version. */
const NEW_SESSION = `
WITH s AS (
  INSERT INTO sessions (id, organization_id, project_id, agent_id, status, channel, user_id, environment, metadata,
                        message_count, created_at, last_message_at, access_key_id, agent_version)
  VALUES ($1, $2, $3, $4, 'active', $12, $13, $14::"Environment", $15::jsonb, 2, $5::timestamp(3), $5::timestamp(3), $17::text,
          $18::int)
  RETURNING id, agent_version)
${messagesFromS("$16::text", "$17", "s.agent_version")}`;

/**
 * $12 environment, $13 user_id ('' when none was given), $14 the trigger's own callback_url (null:
 * none), $15 access_key_id, $16 the pinned version (null: the session's), $17 the published version,
 * $18 true when no callback applies (the console), $19 the published version's callback_url.
 * Counters move in the database (never read-modify-write) so that concurrent triggers on one session
 * stay exact; GREATEST keeps last_message_at monotonic whatever the commit order. A session without a
 * user_id takes the first one a later message gives; a session's user_id, once set, is kept. A
 * session keeps its version (one from before versions takes the published one); the reply's default
 * callback_url is its version's.
 */
const CONTINUED_VERSION = "COALESCE($16::int, s.agent_version)";
const CONTINUED_SESSION = `
WITH s AS (
  UPDATE sessions SET message_count = message_count + 2, last_message_at = GREATEST(last_message_at, $5::timestamp(3)),
    user_id = CASE WHEN user_id = '' THEN $13::text ELSE user_id END, agent_version = COALESCE(agent_version, $17::int)
  WHERE id = $1 AND organization_id = $2 AND agent_id = $4 AND environment = $12::"Environment"
  RETURNING id, agent_version)
${messagesFromS(
  `COALESCE($14::text, CASE WHEN $18::boolean THEN NULL WHEN ${CONTINUED_VERSION} = $17::int THEN $19::text
    ELSE (SELECT v.callback_url FROM agent_versions v WHERE v.agent_id = $4 AND v.version = ${CONTINUED_VERSION}) END)`,
  "$15",
  CONTINUED_VERSION,
)}`;

export interface TriggerRows {
  sessionId: string;
  /** A new session, or one of this agent and environment to continue. */
  newSession: boolean;
  organizationId: string;
  projectId: string;
  agentId: string;
  environment: "production" | "draft";
  channel: string;
  userId: string;
  metadata: Record<string, unknown>;
  userMessageId: string;
  content: string;
  payload: Record<string, unknown>;
  replyId: string;
  at: Date;
  leaseUntil: Date;
  /** The trigger's own callback_url (null: none given). */
  callbackUrl: string | null;
  /** Whether the agent version's default callback_url applies when the trigger names none (not in the console). */
  defaultCallbacks: boolean;
  /** The Access Key that sent it (null: the console), for the key's usage preview. */
  accessKeyId: string | null;
  /**
   * A new session: the version it starts with (lib/serving.ts) and that version's default
   * callback_url. A continued one: the pinned version, if any, and the published version with its
   * default callback_url (a session of the published version takes it without a lookup).
   */
  version: number | null;
  publishedVersion: number;
  defaultCallbackUrl: string | null;
}

/**
 * Stores a trigger; null when the session to continue does not exist (nothing is stored then), else
 * the agent version that produces the reply.
 */
export async function insertTrigger(t: TriggerRows): Promise<{ agentVersion: number } | null> {
  const db = await database();
  const common = [
    t.sessionId,
    t.organizationId,
    t.projectId,
    t.agentId,
    at(t.at),
    t.userMessageId,
    t.content,
    JSON.stringify(t.payload),
    t.replyId,
    // One millisecond later, so that a reply always sorts after the message it answers.
    at(new Date(t.at.getTime() + 1)),
    at(t.leaseUntil),
  ];
  const rows = t.newSession
    ? await db.sql.query<{ id: string; agentVersion: number | null }>(NEW_SESSION, [
        ...common,
        t.channel,
        t.userId,
        t.environment,
        JSON.stringify(t.metadata),
        t.callbackUrl ?? (t.defaultCallbacks ? t.defaultCallbackUrl : null),
        t.accessKeyId,
        t.version ?? t.publishedVersion,
      ])
    : await db.sql.query<{ id: string; agentVersion: number | null }>(CONTINUED_SESSION, [
        ...common,
        t.environment,
        t.userId,
        t.callbackUrl,
        t.accessKeyId,
        t.version,
        t.publishedVersion,
        !t.defaultCallbacks,
        t.defaultCallbackUrl,
      ]);
  if (rows.length !== 2) return null;
  const reply = rows.find((r) => r.id === t.replyId);
  return { agentVersion: Number(reply?.agentVersion ?? t.publishedVersion) };
}

// With the reply, in the same statement, its completion callback when it has a callback_url
// (lib/callbacks/events.ts; $12 the delivery id, $10 its time).
const STORE_REPLY = `
WITH m AS (
  UPDATE messages SET status = $2, content = $3, model = $4, prompt_tokens = $5, completion_tokens = $6,
    total_tokens = $7, cost = $8, processing_time_ms = $9, completed_at = $10::timestamp(3), error = $11::jsonb,
    lease_until = NULL
  WHERE id = $1 AND status = 'processing'
  RETURNING *),
d AS (${MESSAGE_CALLBACK_CTE("m", "$12", "$10")}),
s AS (
  UPDATE sessions SET prompt_tokens = prompt_tokens + COALESCE($5, 0), completion_tokens = completion_tokens + COALESCE($6, 0),
    total_tokens = total_tokens + COALESCE($7, 0), cost = cost + $8
  WHERE id IN (SELECT session_id FROM m)
  RETURNING id)
SELECT (SELECT count(*) FROM m)::int AS stored, (SELECT count(*) FROM d)::int AS queued`;

export interface ReplyRow {
  id: string;
  status: "completed" | "error";
  content: string;
  model: string | null;
  /** The runtime's count, as the API answers it; null for an error. */
  token_usage: TokenUsage | null;
  cost: number;
  processingTimeMs: number;
  completedAt: Date;
  error: { code: "message_processing_failed"; message: string; reason?: "upstream_timeout" | "upstream_error" } | null;
}

/** The reply a message row holds: null while it is processing (or for a user message). */
export function replyRowOf(m: Message): ReplyRow | null {
  if (m.role !== "assistant" || m.status === "processing") return null;
  const completedAt = m.completedAt ?? new Date();
  if (m.status === "completed") {
    return {
      id: m.id,
      status: "completed",
      content: m.content,
      model: m.model,
      token_usage: tokenUsage(m) ?? usage(0, 0),
      cost: m.cost,
      processingTimeMs: m.processingTimeMs,
      completedAt,
      error: null,
    };
  }
  const error = (m.error ?? null) as Partial<NonNullable<ReplyRow["error"]>> | null;
  return {
    id: m.id,
    status: "error",
    content: "",
    model: null,
    token_usage: null,
    cost: 0,
    processingTimeMs: m.processingTimeMs,
    completedAt,
    error: {
      code: "message_processing_failed",
      message: error?.message ?? "",
      reason: error?.reason === "upstream_timeout" ? "upstream_timeout" : "upstream_error",
    },
  };
}

/** Stores a reply if its message is still processing (with the session's counters); false otherwise. */
export async function storeReplyRow(r: ReplyRow): Promise<boolean> {
  const db = await database();
  const rows = await db.sql.query<{ stored: number; queued: number }>(STORE_REPLY, [
    r.id,
    r.status,
    r.content,
    r.model,
    r.token_usage?.prompt_tokens ?? null,
    r.token_usage?.completion_tokens ?? null,
    r.token_usage?.total_tokens ?? null,
    r.cost,
    r.processingTimeMs,
    at(r.completedAt),
    r.error ? JSON.stringify(r.error) : null,
    newId("dlv"),
  ]);
  if (Number(rows[0]?.queued ?? 0) > 0) nudgeDeliverer();
  return Number(rows[0]?.stored ?? 0) === 1;
}

/**
 * The polling path's read (GET message), one statement for the polls that arrive together
 * (lib/db/batch.ts): each message, within a visible session of its agent. Raw SQL because it is
 * the most frequent request of the API: Prisma's query building costs several times the round
 * trip's CPU (bench/profile.ts; docs/benchmarks.md). timestamp(3)
 * columns hold UTC wall time: `AT TIME ZONE 'UTC'` reads them as instants whatever the client's zone.
 * The session is read by its primary key alone, in a subquery the planner keeps apart (`OFFSET 0`),
 * and only then checked for the agent, the organization and the environment. Written as one join,
 * a table the planner has no statistics for yet (a new deployment right after a burst of triggers)
 * got the organization's index of sessions, with the id as a filter on it: a scan of every
 * session of the organization, 1.5 ms instead of 0.1 (docs/benchmarks.md, "After the burst").
 */
const VISIBLE_MESSAGES = `
SELECT q.i::int AS "batchIndex", v.*
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS q(message_id, session_id, agent_id, organization_id, i)
JOIN LATERAL (
  SELECT m.id, m.session_id AS "sessionId", m.agent_id AS "agentId", m.organization_id AS "organizationId",
    m.project_id AS "projectId", m.role, m.status, m.content, m.payload, m.model,
    m.prompt_tokens AS "promptTokens", m.completion_tokens AS "completionTokens", m.total_tokens AS "totalTokens",
    m.cost, m.processing_time_ms AS "processingTimeMs", m.error, m.reply_to_id AS "replyToId",
    m.lease_until AT TIME ZONE 'UTC' AS "leaseUntil", m.recoveries, m.callback_url AS "callbackUrl",
    m.access_key_id AS "accessKeyId", m.agent_version AS "agentVersion",
    m.created_at AT TIME ZONE 'UTC' AS "createdAt", m.completed_at AT TIME ZONE 'UTC' AS "completedAt"
  FROM messages m
    JOIN (SELECT id, agent_id, organization_id, environment FROM sessions WHERE id = q.session_id OFFSET 0) s
      ON s.id = m.session_id
  WHERE m.id = q.message_id AND m.session_id = q.session_id AND s.agent_id = q.agent_id
    AND s.organization_id = q.organization_id AND s.environment = 'production') v ON true`;

interface MessageRef {
  messageId: string;
  sessionId: string;
  agentId: string;
  organizationId: string;
}

const messageReader = batcherPerDatabase(async (db, refs: MessageRef[]) => {
  const rows = await db.sql.query<Message & { batchIndex: number }>(VISIBLE_MESSAGES, [
    refs.map((r) => r.messageId),
    refs.map((r) => r.sessionId),
    refs.map((r) => r.agentId),
    refs.map((r) => r.organizationId),
  ]);
  const found: (Message | undefined)[] = refs.map(() => undefined);
  for (const { batchIndex, ...m } of rows) {
    // float8 and int4 arrive as numbers from both drivers; guard the one a driver may send as text.
    found[Number(batchIndex) - 1] = { ...m, cost: Number(m.cost) };
  }
  return found;
});

/** The message `messageId` of a production session of the agent, or undefined. */
export async function findVisibleMessage(opts: MessageRef): Promise<Message | undefined> {
  return messageReader(await database()).load(opts);
}
