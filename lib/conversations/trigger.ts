// The conversational trigger (docs/api.md, Conversational agents): validate, resolve file
// references, then store the user message, the pending assistant reply and its job in one
// transaction. `acceptMessage` answers at once (the caller polls the reply); `converse` waits,
// bounded, for the reply. The caller (route or console) picks one and shapes the HTTP answer.
import { assertNotArchived } from "../archived";
import { givenCallbackUrl } from "../callbacks/events";
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import { resolveFileRefs } from "../files/refs";
import type { Agent } from "../generated/prisma/client";
import { newId } from "../ids";
import { GENERIC_RUNTIME_ERROR } from "../runtime";
import { agentAt, pinnedVersion, servingVersion, versionUsage, type AgentAtVersion } from "../serving";
import { recordUsage } from "../usage/recorder";
import { parseWith } from "../validate";
import { ConversationTriggerBody } from "./schemas";
import { assertConversational } from "./sessions";
import { insertTrigger, replyRowOf } from "./store";
import { assertReplyCapacity, leaseMs, replyOutcome, startReply, type ReplyOutcome, type ReplyTask } from "./replies";

export interface ConversationTrigger {
  agent: Agent;
  /** The trigger body as received (a JSON object); validated here. */
  body: Record<string, unknown>;
  /** Base of the signed links that file references resolve to (the address the caller used). */
  baseUrl: string;
  /** `draft`: the console's test console; its sessions never appear in the public API. */
  environment?: "production" | "draft";
  /** The Access Key that sent the trigger (absent: the console), recorded on the message and a new session. */
  accessKeyId?: string;
}

/**
 * Stores the user message, the pending reply (with its producer's lease) and the session counters in
 * one statement, and returns the reply's task: the caller starts it at once. A new session starts
 * with the version a pin names, else the one lib/serving.ts chooses for its end user (or for it); a
 * continued one keeps its own unless the trigger pins another.
 */
async function storeTrigger(opts: {
  agent: Agent;
  body: ConversationTriggerBody;
  payload: Record<string, unknown>;
  environment: "production" | "draft";
  callbackUrl: string | null;
  accessKeyId: string | null;
  pin: number | null;
}): Promise<ReplyTask> {
  const { agent, body, environment } = opts;
  const now = new Date();
  const newSession = !body.session_id;
  const sessionId = body.session_id ?? newId("sess");
  let served: AgentAtVersion | undefined = newSession
    ? await agentAt(agent, opts.pin ?? servingVersion(agent, body.user_id || sessionId))
    : undefined;
  const rows = {
    sessionId,
    newSession,
    organizationId: agent.organizationId,
    projectId: agent.projectId,
    agentId: agent.id,
    environment,
    channel: environment === "draft" ? "console" : "webhook",
    userId: body.user_id ?? "",
    metadata: body.metadata ?? {},
    userMessageId: newId("msg"),
    content: body.message,
    payload: opts.payload,
    replyId: newId("msg"),
    at: now,
    leaseUntil: new Date(now.getTime() + leaseMs()),
    callbackUrl: opts.callbackUrl,
    defaultCallbacks: environment === "production",
    accessKeyId: opts.accessKeyId,
    version: served ? served.servedVersion : opts.pin,
    publishedVersion: agent.publishedVersion,
    defaultCallbackUrl: served ? served.callbackUrl : agent.callbackUrl,
  };
  const stored = await insertTrigger(rows);
  if (!stored) {
    throw new ApiError("session_not_found", "Session not found.", { session_id: body.session_id });
  }
  served ??= await agentAt(agent, stored.agentVersion);
  recordUsage({
    organizationId: agent.organizationId,
    agentId: agent.id,
    keyId: opts.accessKeyId,
    at: now,
    triggers: 1,
    ...versionUsage(served),
  });
  return {
    keyId: opts.accessKeyId,
    messageId: rows.replyId,
    sessionId: rows.sessionId,
    acceptedAt: now,
    agent: served,
    message: body.message,
    attachments: Array.isArray(opts.payload.attachments) ? opts.payload.attachments : [],
    // As stored (file references resolved), as a recovery reads it back.
    metadata: body.metadata ? (opts.payload.metadata as Record<string, unknown>) : {},
    // A new session has no history: nothing to read.
    ...(newSession ? { history: [] } : {}),
    historyBefore: now,
  };
}

/** Validation and file references, before anything is stored: a bad body or reference is a 4xx and leaves no trace. */
async function prepare(opts: ConversationTrigger) {
  const { agent } = opts;
  assertNotArchived(agent);
  assertReplyCapacity(agent.organizationId);
  const environment = opts.environment ?? "production";
  // Checked first, for its own error code; the console's test console (draft) sends none.
  const callbackUrl = environment === "production" ? givenCallbackUrl(opts.body) : null;
  // The console's test console may try the draft; a trigger names a version that is or was published.
  const pin = await pinnedVersion(agent, opts.body.agent_version, { allowDraft: environment === "draft" });
  const body = parseWith(ConversationTriggerBody, opts.body, "body");
  const payload = (await resolveFileRefs(opts.body, {
    organizationId: agent.organizationId,
    agentId: agent.id,
    baseUrl: opts.baseUrl,
  })) as Record<string, unknown>;
  return { body, payload, environment, callbackUrl, accessKeyId: opts.accessKeyId ?? null, pin };
}

const agentIds = (agent: AgentAtVersion) => ({
  agent_id: agent.id,
  organization_id: agent.organizationId,
  project_id: agent.projectId,
  agent_version: agent.servedVersion,
});

/** Stores the message and its pending reply, starts the reply, and answers at once; the reply is polled. */
export async function acceptMessage(opts: ConversationTrigger) {
  const { agent } = opts;
  const task = await storeTrigger({ agent, ...(await prepare(opts)) });
  void startReply(task);
  return {
    success: true as const,
    session_id: task.sessionId,
    message_id: task.messageId,
    ...agentIds(task.agent),
    status: "processing" as const,
    timestamp: new Date().toISOString(),
  };
}

/**
 * Stores the message and waits for its reply: at most TRIGGER_WAIT_MS, or `waitMs` when shorter.
 * Throws 502 upstream_timeout when the reply is still processing then (it can be polled), and
 * 502 upstream_error when it ended in error (every retry already made: a client may retry).
 */
export async function converse(opts: ConversationTrigger & { waitMs?: number }) {
  const { body } = await converseWithOutcome(opts);
  return body;
}

async function converseWithOutcome(opts: ConversationTrigger & { waitMs?: number }) {
  const { task, reply } = await startConversation(opts);
  return awaitReply(task, reply, opts.waitMs);
}

/**
 * Validates and stores the trigger (a 4xx leaves no trace), then starts its reply; `onDelta`, when
 * given, receives the reply's text as the runtime produces it (./stream.ts).
 */
export async function startConversation(opts: ConversationTrigger, onDelta?: (content: string) => void) {
  const task = await storeTrigger({ agent: opts.agent, ...(await prepare(opts)) });
  return { task, reply: startReply(onDelta ? { ...task, onDelta } : task) };
}

/**
 * Waits (bounded) for a started reply and answers what the sync trigger answers: the reply object,
 * or the ApiError (upstream_timeout: still processing; upstream_error: ended in error).
 */
export async function awaitReply(task: ReplyTask, reply: Promise<ReplyOutcome>, waitMsPreferred?: number) {
  const waitMs = Math.min(env().TRIGGER_WAIT_MS, waitMsPreferred ?? Infinity);
  let stopTimer = () => {};
  const timedOut = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    stopTimer = () => clearTimeout(timer);
  });
  const outcome = await Promise.race([reply.catch(() => null), timedOut]);
  stopTimer();
  const details = { session_id: task.sessionId, message_id: task.messageId };
  // `taken`: another process stored it first; read what it stored.
  const final = outcome?.status === "taken" ? await storedOutcome(task.messageId) : outcome;
  if (!final) {
    throw new ApiError("upstream_timeout", "The agent did not reply in time; poll the message for its reply.", details);
  }
  if (final.status === "error" && final.reason === "upstream_timeout") {
    // Every attempt ran into the runtime's time limit: the cause the caller needs is the timeout,
    // though unlike the wait running out above, the message has ended (`error`): nothing to poll for.
    throw new ApiError(
      "upstream_timeout",
      "The agent runtime timed out on every attempt; the message ended in error.",
      { ...details, message_status: "error" },
    );
  }
  if (final.status !== "completed") {
    // Our own wording of the cause (a refused address, a missing secret) helps the caller; the
    // upstream's words never reach here (lib/runtime toApiError).
    const reason = final.status === "error" && final.message !== GENERIC_RUNTIME_ERROR ? final.message : "";
    throw new ApiError(
      "upstream_error",
      `The agent runtime failed to produce a reply.${reason ? ` ${reason}` : ""}`,
      details,
    );
  }
  const body = {
    success: true as const,
    session_id: task.sessionId,
    message_id: task.messageId,
    ...agentIds(task.agent),
    status: "completed" as const,
    response: final.content,
    files: [] as unknown[],
    token_usage: final.token_usage,
    processing_time: final.processingTimeMs / 1000,
    timestamp: final.completedAt.toISOString(),
  };
  return { body, final };
}

/** What another producer stored for a message (null while it is still processing). */
async function storedOutcome(messageId: string): Promise<ReplyOutcome | null> {
  const db = await prisma();
  const row = replyRowOf(await db.message.findUniqueOrThrow({ where: { id: messageId } }));
  return row && replyOutcome(row);
}

/** The console's test console: a draft conversation (never in the public API), with the reply's cost and model. */
export async function converseInConsole(opts: Omit<ConversationTrigger, "environment">) {
  assertConversational(opts.agent);
  const { body, final } = await converseWithOutcome({ ...opts, environment: "draft" });
  return { ...body, cost: final.cost, model: final.model };
}
