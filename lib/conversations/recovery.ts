// Recovery of replies whose producer died: a reply still `processing` whose lease ran out is
// claimed by one process (`FOR UPDATE SKIP LOCKED`: never by two), which produces it again from
// the stored user message. After MAX_RECOVERIES takeovers it ends `error`, so no message stays
// processing for ever. Runs in every process with a worker (lib/worker/periodic.ts).
import { MESSAGE_CALLBACK_CTE } from "../callbacks/events";
import { nudgeDeliverer } from "../callbacks/service";
import { database, prisma } from "../db";
import { newId } from "../ids";
import type { Message } from "../generated/prisma/client";
import { log } from "../log";
import { Prisma as P } from "../generated/prisma/client";
import { agentAt } from "../serving";
import { leaseMs, runReply, type ReplyTask } from "./replies";

export const MAX_RECOVERIES = 3;
const BATCH = 20;

async function taskOf(reply: Message): Promise<ReplyTask | null> {
  const db = await prisma();
  const [request, agent] = await Promise.all([
    reply.replyToId ? db.message.findUnique({ where: { id: reply.replyToId } }) : null,
    db.agent.findUnique({ where: { id: reply.agentId } }),
  ]);
  if (!request || !agent) return null;
  const payload = (request.payload ?? {}) as Record<string, unknown>;
  return {
    messageId: reply.id,
    sessionId: reply.sessionId,
    acceptedAt: reply.createdAt,
    // The version that was producing it (a reply written before versions: the published one).
    agent: await agentAt(agent, reply.agentVersion),
    message: request.content,
    attachments: Array.isArray(payload.attachments) ? payload.attachments : [],
    metadata:
      payload.metadata && typeof payload.metadata === "object" && !Array.isArray(payload.metadata)
        ? (payload.metadata as Record<string, unknown>)
        : {},
    historyBefore: request.createdAt,
  };
}

// The end of a reply that cannot be produced any more, with its completion callback when it has a
// callback_url (one statement: both or neither).
const GIVE_UP = `
WITH m AS (
  UPDATE messages SET status = 'error', error = $2::jsonb, processing_time_ms = $3, completed_at = $4::timestamp(3),
    lease_until = NULL
  WHERE id = $1 AND status = 'processing'
  RETURNING *),
d AS (${MESSAGE_CALLBACK_CTE("m", "$5", "$4")})
SELECT (SELECT count(*) FROM d)::int AS queued`;

/** Ends a reply that cannot be produced any more. */
async function giveUp(id: string, message: string) {
  const db = await prisma();
  const now = new Date();
  const reply = await db.message.findUniqueOrThrow({ where: { id }, select: { createdAt: true } });
  const sql = (await database()).sql;
  const rows = await sql.query<{ queued: number }>(GIVE_UP, [
    id,
    JSON.stringify({ code: "message_processing_failed", message, reason: "upstream_error" }),
    Math.max(0, now.getTime() - reply.createdAt.getTime()),
    now.toISOString(),
    newId("dlv"),
  ]);
  if (Number(rows[0]?.queued ?? 0) > 0) nudgeDeliverer();
}

/** Claims up to BATCH replies whose lease ran out and produces them; returns the ids it claimed. */
export async function recoverReplies(now = new Date()): Promise<string[]> {
  const db = await prisma();
  const claimed = await db.$queryRaw<{ id: string; recoveries: number }[]>(P.sql`
    UPDATE messages SET lease_until = ${new Date(now.getTime() + leaseMs())}::timestamp(3), recoveries = recoveries + 1
    WHERE id IN (
      SELECT id FROM messages
      WHERE status = 'processing' AND role = 'assistant' AND (lease_until IS NULL OR lease_until < ${now}::timestamp(3))
      ORDER BY lease_until NULLS FIRST LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING id, recoveries`);
  for (const { id, recoveries } of claimed) {
    log.warn({ message_id: id, recoveries }, "reply taken over after its producer stopped");
    if (recoveries > MAX_RECOVERIES) {
      await giveUp(id, "The reply could not be produced.");
      continue;
    }
    const reply = await db.message.findUnique({ where: { id } });
    const task = reply && (await taskOf(reply));
    if (!task) {
      await giveUp(id, "The message this reply answers no longer exists.");
      continue;
    }
    void runReply(task).catch((err) =>
      log.error({ message_id: id, err: { message: (err as Error).message } }, "recovered reply could not be stored"),
    );
  }
  return claimed.map((c) => c.id);
}
