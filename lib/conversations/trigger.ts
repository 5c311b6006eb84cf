// The conversational trigger (SPEC 4.1, DESIGN "Conversational agents"): validate, resolve file
// references, then store the user message, the pending assistant reply and its job in one
// transaction. `acceptMessage` answers at once (the caller polls the reply); `converse` waits,
// bounded, for the reply. The caller (route or dashboard) picks one and shapes the HTTP answer.
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { enqueue, transactionWithJobs } from "../queue";
import { parseWith } from "../validate";
import { tokenUsage } from "./records";
import { ConversationTriggerBody } from "./schemas";
import { assertConversational } from "./sessions";
import { listenForReply } from "./waiters";

export interface ConversationTrigger {
  agent: Agent;
  /** The trigger body as received (a JSON object); validated here. */
  body: Record<string, unknown>;
  /** Base of the signed links that file references resolve to (the address the caller used). */
  baseUrl: string;
  /** `draft`: the dashboard's test console; its sessions never appear in the public API. */
  environment?: "production" | "draft";
}

async function storeTrigger(opts: {
  agent: Agent;
  body: ConversationTriggerBody;
  payload: Record<string, unknown>;
  assistantMessageId: string;
  environment: "production" | "draft";
}) {
  const { agent, body, assistantMessageId, environment } = opts;
  const userMessageId = newId("msg");
  const now = new Date();
  const result = await transactionWithJobs(async (tx) => {
    let sessionId = body.session_id;
    if (sessionId) {
      const existing = await tx.session.findFirst({
        where: { id: sessionId, agentId: agent.id, organizationId: agent.organizationId, environment },
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
          channel: environment === "draft" ? "console" : "webhook",
          environment,
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
    await enqueue("reply", { messageId: assistantMessageId }, { tx });
    return { sessionId };
  });
  return { sessionId: result.sessionId, messageId: assistantMessageId };
}

/** Validation and file references, before anything is stored: a bad body or reference is a 4xx and leaves no trace. */
async function prepare(opts: ConversationTrigger) {
  const { agent } = opts;
  const body = parseWith(ConversationTriggerBody, opts.body, "body");
  const payload = (await resolveFileRefs(opts.body, {
    organizationId: agent.organizationId,
    agentId: agent.id,
    baseUrl: opts.baseUrl,
  })) as Record<string, unknown>;
  return { body, payload, environment: opts.environment ?? "production" };
}

const agentIds = (agent: Agent) => ({
  agent_id: agent.id,
  organization_id: agent.organizationId,
  project_id: agent.projectId,
});

/** Stores the message and its pending reply and answers at once; the reply is polled. */
export async function acceptMessage(opts: ConversationTrigger) {
  const { agent } = opts;
  const prepared = await prepare(opts);
  const { sessionId, messageId } = await storeTrigger({ agent, ...prepared, assistantMessageId: newId("msg") });
  return {
    success: true as const,
    session_id: sessionId,
    message_id: messageId,
    ...agentIds(agent),
    status: "processing" as const,
    timestamp: new Date().toISOString(),
  };
}

/**
 * Stores the message and waits for its reply: at most TRIGGER_WAIT_MS, or `waitMs` when shorter.
 * Throws 502 upstream_timeout when the reply is still processing then (it can be polled), and
 * 502 upstream_error when it ended in error.
 */
export async function converse(opts: ConversationTrigger & { waitMs?: number }) {
  const { agent } = opts;
  const prepared = await prepare(opts);
  // The id is known before the commit, so the wake-up of a fast local reply cannot be missed.
  const assistantMessageId = newId("msg");
  const listener = listenForReply(assistantMessageId);
  const stored = await storeTrigger({ agent, ...prepared, assistantMessageId }).catch((e) => {
    listener.cancel();
    throw e;
  });
  const finished = await listener.wait(Math.min(env().TRIGGER_WAIT_MS, opts.waitMs ?? Infinity));
  const details = { session_id: stored.sessionId, message_id: stored.messageId };
  const db = await prisma();
  const message = await db.message.findUnique({ where: { id: stored.messageId } });
  if (!finished && message?.status === "processing") {
    throw new ApiError("upstream_timeout", "The agent did not reply in time; poll the message for its reply.", details);
  }
  if (!message || message.status !== "completed") {
    throw new ApiError("upstream_error", "The agent runtime failed to produce a reply.", details);
  }
  return {
    success: true as const,
    session_id: stored.sessionId,
    message_id: message.id,
    ...agentIds(agent),
    status: message.status,
    response: message.content,
    files: [] as unknown[],
    token_usage: tokenUsage(message),
    processing_time: message.processingTimeMs / 1000,
    timestamp: (message.completedAt ?? new Date()).toISOString(),
  };
}

/** The dashboard's test console: a draft conversation (never in the public API), with the reply's cost. */
export async function converseInConsole(opts: Omit<ConversationTrigger, "environment">) {
  assertConversational(opts.agent);
  const reply = await converse({ ...opts, environment: "draft" });
  const db = await prisma();
  const message = await db.message.findUniqueOrThrow({
    where: { id: reply.message_id },
    select: { cost: true, model: true },
  });
  return { ...reply, cost: message.cost, model: message.model };
}
