// The `reply` queue handler: produces the assistant reply of one message. Idempotent: a retried or
// duplicated job finds the message no longer `processing` and does nothing, and the final write is
// a conditional `processing -> completed|error` transition, so one reply at most is ever stored.
import { prisma } from "../db";
import type { Message, Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { QUEUE_RETRY_LIMIT, type JobHandler } from "../queue";
import { generateReply, isRuntimeError, toApiError, type ReplyOutput, type RuntimeConfig } from "../runtime";
import { notifyReplyDone } from "./waiters";

/** Earlier messages handed to the runtime as context. */
const HISTORY_LIMIT = 50;

type Outcome = { ok: true; reply: ReplyOutput } | { ok: false; message: string };

async function finish(message: Message, outcome: Outcome) {
  const db = await prisma();
  const completedAt = new Date();
  const processingTimeMs = Math.max(0, completedAt.getTime() - message.createdAt.getTime());
  const data: Prisma.MessageUpdateManyMutationInput = outcome.ok
    ? {
        status: "completed",
        content: outcome.reply.content,
        model: outcome.reply.model,
        promptTokens: outcome.reply.token_usage.prompt_tokens,
        completionTokens: outcome.reply.token_usage.completion_tokens,
        totalTokens: outcome.reply.token_usage.total_tokens,
        cost: outcome.reply.cost,
        processingTimeMs,
        completedAt,
      }
    : {
        status: "error",
        error: { code: "message_processing_failed", message: outcome.message },
        processingTimeMs,
        completedAt,
      };
  await db.$transaction(async (tx) => {
    const moved = await tx.message.updateMany({ where: { id: message.id, status: "processing" }, data });
    if (moved.count !== 1 || !outcome.ok) return;
    const u = outcome.reply.token_usage;
    await tx.session.update({
      where: { id: message.sessionId },
      data: {
        promptTokens: { increment: u.prompt_tokens },
        completionTokens: { increment: u.completion_tokens },
        totalTokens: { increment: u.total_tokens },
        cost: { increment: outcome.reply.cost },
      },
    });
  });
  notifyReplyDone(message.id);
}

async function loadContext(message: Message) {
  const db = await prisma();
  const [request, agent] = await Promise.all([
    message.replyToId ? db.message.findUnique({ where: { id: message.replyToId } }) : null,
    db.agent.findUnique({ where: { id: message.agentId } }),
  ]);
  if (!request || !agent) return null;
  const earlier = await db.message.findMany({
    where: { sessionId: message.sessionId, status: "completed", createdAt: { lt: request.createdAt } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: { role: true, content: true },
  });
  const payload = (request.payload ?? {}) as Record<string, unknown>;
  return {
    agent,
    request,
    attachments: Array.isArray(payload.attachments) ? (payload.attachments as unknown[]) : [],
    metadata:
      payload.metadata && typeof payload.metadata === "object" && !Array.isArray(payload.metadata)
        ? (payload.metadata as Record<string, unknown>)
        : {},
    history: earlier.reverse().map((m) => ({ role: m.role as "user" | "assistant", content: m.content })),
  };
}

export const replyJob: JobHandler<"reply"> = async (data, job) => {
  const db = await prisma();
  const message = await db.message.findUnique({ where: { id: data.messageId } });
  if (!message || message.role !== "assistant" || message.status !== "processing") return;
  const context = await loadContext(message);
  if (!context) {
    await finish(message, { ok: false, message: "The message this reply answers no longer exists." });
    return;
  }
  try {
    const reply = await generateReply(context.agent.runtime as RuntimeConfig, {
      agentId: message.agentId,
      sessionId: message.sessionId,
      messageId: message.id,
      message: context.request.content,
      attachments: context.attachments,
      metadata: context.metadata,
      history: context.history,
      signal: job.signal,
    });
    await finish(message, { ok: true, reply });
  } catch (e) {
    const lastAttempt = job.retryCount >= QUEUE_RETRY_LIMIT;
    // Anything that is not a runtime verdict (database hiccup, bug) may pass on a retry.
    const retryable = isRuntimeError(e) ? e.retryable : true;
    log.warn(
      { message_id: message.id, attempt: job.retryCount, retryable, err: { message: (e as Error).message } },
      "reply attempt failed",
    );
    if (retryable && !lastAttempt) throw e;
    // The runtime's own words stay in the log; the caller sees a safe summary.
    const safe = isRuntimeError(e) ? toApiError(e).message : "The reply could not be produced.";
    await finish(message, { ok: false, message: safe });
  }
};
