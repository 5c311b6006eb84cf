// The conversational trigger (SPEC 4.1, DESIGN "Conversational agents"): validate, resolve file
// references, then store the user message, the pending assistant reply and its job in one
// transaction. Synchronous by default (bounded wait for the reply); `Prefer: respond-async` answers
// 202 at once.
import type { KeyPrincipal } from "../auth/access-keys";
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { baseUrl } from "../http/base-url";
import { Reply } from "../http/handler";
import { parseWith } from "../http/validate";
import { newId } from "../ids";
import { enqueue, queue, QUEUES } from "../queue";
import { tokenUsage } from "./records";
import { ConversationTriggerBody } from "./schemas";
import { listenForReply } from "./waiters";

/** RFC 7240 preferences we honour: respond-async, and wait=<seconds> to shorten the bounded wait. */
export function parsePrefer(header: string | null): { respondAsync: boolean; waitSeconds?: number } {
  const out: { respondAsync: boolean; waitSeconds?: number } = { respondAsync: false };
  for (const part of (header ?? "").split(",")) {
    const [token, value = ""] = part
      .split(";")[0]!
      .split("=")
      .map((s) => s.trim().toLowerCase().replace(/"/g, ""));
    if (token === "respond-async") out.respondAsync = true;
    if (token === "wait" && /^\d+$/.test(value)) out.waitSeconds = Number(value);
  }
  return out;
}

async function storeTrigger(opts: {
  agent: Agent;
  body: ConversationTriggerBody;
  payload: Record<string, unknown>;
  assistantMessageId: string;
}) {
  const { agent, body, assistantMessageId } = opts;
  const db = await prisma();
  // Start the queue outside the transaction: on PGlite's single connection, starting it inside
  // would wait on the transaction that waits on it.
  await queue();
  const userMessageId = newId("msg");
  const now = new Date();
  const result = await db.$transaction(async (tx) => {
    let sessionId = body.session_id;
    if (sessionId) {
      const existing = await tx.session.findFirst({
        where: { id: sessionId, agentId: agent.id, organizationId: agent.organizationId, environment: "production" },
        select: { id: true },
      });
      if (!existing) throw new ApiError("session_not_found", "Session not found.", { session_id: sessionId });
    } else {
      sessionId = newId("sess");
      await tx.session.create({
        data: {
          id: sessionId,
          organizationId: agent.organizationId,
          projectId: agent.projectId,
          agentId: agent.id,
          status: "active",
          channel: "webhook",
          environment: "production",
          userId: body.user_id ?? "",
          metadata: (body.metadata ?? {}) as Prisma.InputJsonValue,
          createdAt: now,
          lastMessageAt: now,
        },
      });
    }
    const common = { sessionId, agentId: agent.id, organizationId: agent.organizationId, projectId: agent.projectId };
    await tx.message.create({
      data: {
        ...common,
        id: userMessageId,
        role: "user",
        status: "completed",
        content: body.message,
        payload: opts.payload as Prisma.InputJsonValue,
        createdAt: now,
        completedAt: now,
      },
    });
    // One millisecond later, so that a reply always sorts after the message it answers.
    await tx.message.create({
      data: {
        ...common,
        id: assistantMessageId,
        role: "assistant",
        status: "processing",
        replyToId: userMessageId,
        createdAt: new Date(now.getTime() + 1),
      },
    });
    // Counters move in the database (never read-modify-write) so concurrent triggers on one
    // session stay exact; GREATEST keeps last_message_at monotonic whatever the commit order.
    await tx.$executeRaw`UPDATE sessions SET message_count = message_count + 2,
      last_message_at = GREATEST(last_message_at, ${now}::timestamp(3)) WHERE id = ${sessionId}`;
    await enqueue(QUEUES.reply, { messageId: assistantMessageId }, { tx });
    return { sessionId };
  });
  return { sessionId: result.sessionId, messageId: assistantMessageId };
}

export async function triggerConversation(opts: {
  req: Request;
  key: KeyPrincipal;
  agent: Agent;
  requestId: string;
  body: Record<string, unknown>;
}): Promise<Reply> {
  const { agent, req } = opts;
  const body = parseWith(ConversationTriggerBody, opts.body, "body");
  const prefer = parsePrefer(req.headers.get("prefer"));
  // Before anything is stored: a bad reference is a 4xx and leaves no trace.
  const payload = (await resolveFileRefs(opts.body, {
    organizationId: agent.organizationId,
    agentId: agent.id,
    baseUrl: baseUrl(req),
  })) as Record<string, unknown>;

  const ids = { agent_id: agent.id, organization_id: agent.organizationId, project_id: agent.projectId };
  if (prefer.respondAsync) {
    const { sessionId, messageId } = await storeTrigger({ agent, body, payload, assistantMessageId: newId("msg") });
    return new Reply(
      {
        success: true,
        session_id: sessionId,
        message_id: messageId,
        ...ids,
        status: "processing",
        timestamp: new Date().toISOString(),
      },
      202,
      {
        "preference-applied": "respond-async",
        location: `/api/agents/${agent.id}/sessions/${sessionId}/messages/${messageId}`,
      },
    );
  }

  // The id is known before the commit, so the wake-up of a fast local reply cannot be missed.
  const assistantMessageId = newId("msg");
  const listener = listenForReply(assistantMessageId);
  const stored = await storeTrigger({ agent, body, payload, assistantMessageId }).catch((e) => {
    listener.cancel();
    throw e;
  });
  const waitMs = Math.min(
    env().TRIGGER_WAIT_MS,
    prefer.waitSeconds !== undefined ? prefer.waitSeconds * 1000 : Infinity,
  );
  const finished = await listener.wait(waitMs);
  const details = { session_id: stored.sessionId, message_id: stored.messageId };
  const db = await prisma();
  const message = await db.message.findUnique({ where: { id: stored.messageId } });
  if (!finished && message?.status === "processing") {
    throw new ApiError("upstream_timeout", "The agent did not reply in time; poll the message for its reply.", details);
  }
  if (!message || message.status !== "completed") {
    throw new ApiError("upstream_error", "The agent runtime failed to produce a reply.", details);
  }
  return new Reply({
    success: true,
    session_id: stored.sessionId,
    message_id: message.id,
    ...ids,
    status: message.status,
    response: message.content,
    files: [],
    token_usage: tokenUsage(message),
    processing_time: message.processingTimeMs / 1000,
    timestamp: (message.completedAt ?? new Date()).toISOString(),
  });
}
