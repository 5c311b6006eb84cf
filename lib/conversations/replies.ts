// Producing assistant replies. The process that accepted a trigger starts its reply at once, in
// process (no queue round trip, no poll delay): a reply mostly waits on its upstream, so hundreds
// run side by side, bounded by REPLY_CONCURRENCY per process and by the agent's optional
// `runtime.max_concurrency`. Retries of a failing upstream happen here, within the caller's
// bounded wait, so a reply that ended `error` has ended for good (and a client may retry).
//
// Crash safety: the assistant message carries a lease (`lease_until`) that its producer renews
// while it works; when a process dies, recovery (./recovery.ts) takes over replies whose lease ran
// out. The final write is a conditional `processing -> completed | error`, so at most one reply is
// ever stored, however many producers raced.
import { prisma } from "../db";
import { env, publicBaseUrl } from "../env";
import { ApiError } from "../errors";
import { refreshFileUrls } from "../files/refs";
import type { Agent } from "../generated/prisma/client";
import { log } from "../log";
import { secretLookup } from "../secrets/service";
import {
  generateReply,
  isRuntimeError,
  RuntimeConfig,
  toApiError,
  GENERIC_RUNTIME_ERROR,
  type ReplyInput,
  type ReplyOutput,
} from "../runtime";
import { versionUsage, type AgentAtVersion } from "../serving";
import { recordUsage } from "../usage/recorder";
import { FairSlots } from "./fair-slots";
import { storeReplyRow, type ReplyRow } from "./store";
import { notifyReplyDone } from "./waiters";
import { processOnce } from "../process-state";

/** Earlier messages handed to the runtime as context. */
export const HISTORY_LIMIT = 50;
/** Attempts of one producer for an upstream failure that may pass, and the pauses between them. */
const ATTEMPTS = 3;
const BACKOFF_MS = [250, 1_000];

export interface ReplyTask {
  /** The assistant message (processing). */
  messageId: string;
  sessionId: string;
  /** When the reply was accepted: processing time runs from here. */
  acceptedAt: Date;
  /** The agent with the configuration of the version that produces the reply (lib/serving.ts). */
  agent: AgentAtVersion;
  /** The user's message, its resolved attachments and metadata. */
  message: string;
  attachments: unknown[];
  metadata: Record<string, unknown>;
  /** Earlier messages; read from the session (those before `historyBefore`) when absent. */
  history?: ReplyInput["history"];
  /** The user message's creation time: the history is what came before it. */
  historyBefore: Date;
  /** A streaming caller (SSE): the reply's text as the runtime produces it (./stream.ts). */
  onDelta?: (content: string) => void;
  /** The Access Key of the trigger (usage per key); absent when unknown (a recovery). */
  keyId?: string | null;
}

/**
 * Why a reply failed, as the sync trigger answers it: `upstream_timeout` when the last attempt ended
 * by the runtime's time limit, `upstream_error` otherwise. Stored as the message's `error.reason`.
 */
export type FailureReason = "upstream_timeout" | "upstream_error";

interface Failure {
  failed: string;
  reason: FailureReason;
}

export type ReplyOutcome =
  | {
      status: "completed";
      content: string;
      model: string | null;
      token_usage: ReplyOutput["token_usage"];
      cost: number;
      processingTimeMs: number;
      completedAt: Date;
    }
  | { status: "error"; message: string; reason: FailureReason; completedAt: Date }
  /** Another producer stored the reply first (recovery raced a slow producer). */
  | { status: "taken" };

/** A counting semaphore (an agent's max_concurrency): `acquire` resolves when a slot is free, FIFO. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private limit: number) {}
  get idle() {
    return this.active === 0 && this.waiting.length === 0;
  }
  resize(limit: number) {
    this.limit = limit;
  }
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

interface ReplyState {
  /** The process's slots, shared between organizations: ./fair-slots.ts. */
  slots: FairSlots;
  agentGates: Map<string, Gate>;
  /** Messages this process is producing (queued or running): their leases are renewed. */
  owned: Set<string>;
  renewer?: NodeJS.Timeout;
}

/** REPLY_RESERVED_SLOTS, or by default an eighth of the slots (at least one). */
const replyReserve = (e: ReturnType<typeof env>) =>
  e.REPLY_RESERVED_SLOTS ?? Math.max(1, Math.floor(e.REPLY_CONCURRENCY / 8));

// Once per process: Next bundles route handlers and the instrumentation-started worker separately.
const state: ReplyState = processOnce<ReplyState>("replies", () => ({
  slots: new FairSlots(() => {
    const e = env();
    return { capacity: e.REPLY_CONCURRENCY, share: e.ORG_REPLY_CONCURRENCY, reserve: replyReserve(e) };
  }),
  agentGates: new Map(),
  owned: new Set(),
}));

export const leaseMs = () => env().REPLY_LEASE_SECONDS * 1000;

/**
 * Refuses new work once the backlog of replies waiting for a slot passes REPLY_BACKLOG, or the
 * organization's own backlog passes ORG_REPLY_BACKLOG: an organization that floods the service is
 * refused before it can fill the backlog every organization shares.
 */
export function assertReplyCapacity(organizationId: string) {
  const e = env();
  if (state.slots.waiting() >= e.REPLY_BACKLOG || state.slots.waiting(organizationId) >= e.ORG_REPLY_BACKLOG) {
    throw new ApiError("service_unavailable", "The service is at capacity; retry shortly.", {
      retry_after_seconds: 2,
    });
  }
}

/** Drops the gates nobody holds or waits for, so that the map does not grow with every agent seen. */
function pruneGates(map: Map<string, Gate>, key: string) {
  const gate = map.get(key);
  if (gate?.idle) map.delete(key);
}

function agentGate(agent: Agent, config: RuntimeConfig): Gate | undefined {
  const limit = config.max_concurrency;
  if (!limit) return undefined;
  let gate = state.agentGates.get(agent.id);
  if (!gate) state.agentGates.set(agent.id, (gate = new Gate(limit)));
  gate.resize(limit);
  return gate;
}

/** Keeps the leases of every reply this process holds; one UPDATE for all of them. */
function ensureRenewer() {
  if (state.renewer) return;
  state.renewer = setInterval(() => {
    if (!state.owned.size) return;
    const ids = [...state.owned];
    void prisma()
      .then((db) =>
        db.message.updateMany({
          where: { id: { in: ids }, status: "processing" },
          data: { leaseUntil: new Date(Date.now() + leaseMs()) },
        }),
      )
      .catch((err) => log.warn({ err: { message: (err as Error).message } }, "reply lease renewal failed"));
  }, leaseMs() / 3);
  state.renewer.unref?.();
}

async function readHistory(task: ReplyTask): Promise<ReplyInput["history"]> {
  if (task.history) return task.history;
  const db = await prisma();
  const earlier = await db.message.findMany({
    where: { sessionId: task.sessionId, status: "completed", createdAt: { lt: task.historyBefore } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: { role: true, content: true },
  });
  return earlier.reverse().map((m) => ({ role: m.role as "user" | "assistant", content: m.content }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The task's attachments (and files in its metadata) with links signed now: each attempt, and a
 * recovery long after the trigger, hands the runtime links good for the full 15 minutes. When the
 * database cannot be read, the links signed before are handed on.
 */
async function freshFiles(task: ReplyTask): Promise<{ attachments: unknown[]; metadata: Record<string, unknown> }> {
  const opts = { organizationId: task.agent.organizationId, agentId: task.agent.id, baseUrl: publicBaseUrl() };
  try {
    return await refreshFileUrls({ attachments: task.attachments, metadata: task.metadata }, opts);
  } catch (e) {
    log.warn({ message_id: task.messageId, err: { message: (e as Error).message } }, "file links not refreshed");
    return { attachments: task.attachments, metadata: task.metadata };
  }
}

/** Calls the runtime, retrying what may pass, within the attempts and the trigger's wait. */
async function produce(task: ReplyTask, config: RuntimeConfig): Promise<ReplyOutput | Failure> {
  const budgetEnds = task.acceptedAt.getTime() + env().TRIGGER_WAIT_MS;
  const history = await readHistory(task);
  // Once text has reached a streaming caller, another attempt would send it again: no retry then.
  let streamed = false;
  const onDelta = task.onDelta
    ? (content: string) => {
        streamed = true;
        task.onDelta!(content);
      }
    : undefined;
  for (let attempt = 1; ; attempt++) {
    const files = await freshFiles(task);
    try {
      return await generateReply(config, {
        agentId: task.agent.id,
        sessionId: task.sessionId,
        messageId: task.messageId,
        message: task.message,
        attachments: files.attachments,
        metadata: files.metadata,
        history,
        onDelta,
        secrets: secretLookup(task.agent.organizationId),
      });
    } catch (e) {
      const retryable = isRuntimeError(e) ? e.retryable : false;
      const pause = BACKOFF_MS[attempt - 1] ?? 0;
      log.warn(
        { message_id: task.messageId, attempt, retryable, err: { message: (e as Error).message } },
        "reply attempt failed",
      );
      if (!retryable || streamed || attempt >= ATTEMPTS || Date.now() + pause >= budgetEnds) {
        // The runtime's own words stay in the log; the caller sees a safe summary.
        if (!isRuntimeError(e)) return { failed: GENERIC_RUNTIME_ERROR, reason: "upstream_error" };
        return { failed: toApiError(e).message, reason: e.kind === "timeout" ? "upstream_timeout" : "upstream_error" };
      }
      await sleep(pause);
    }
  }
}

/** Stores the outcome if the message is still processing, with the session's token counters. */
async function store(task: ReplyTask, result: ReplyOutput | Failure): Promise<ReplyOutcome> {
  const completedAt = new Date();
  const processingTimeMs = Math.max(0, completedAt.getTime() - task.acceptedAt.getTime());
  const common = { id: task.messageId, processingTimeMs, completedAt };
  const row: ReplyRow =
    "failed" in result
      ? {
          ...common,
          status: "error",
          content: "",
          model: null,
          token_usage: null,
          cost: 0,
          error: { code: "message_processing_failed", message: result.failed, reason: result.reason },
        }
      : {
          ...common,
          status: "completed",
          content: result.content,
          model: result.model,
          token_usage: result.token_usage,
          cost: result.cost,
          error: null,
        };
  if (!(await storeReplyRow(row))) return { status: "taken" };
  recordUsage({
    organizationId: task.agent.organizationId,
    agentId: task.agent.id,
    keyId: task.keyId,
    at: completedAt,
    ...(row.token_usage
      ? {
          repliesCompleted: 1,
          promptTokens: row.token_usage.prompt_tokens,
          completionTokens: row.token_usage.completion_tokens,
          cost: row.cost,
        }
      : { repliesFailed: 1 }),
    latencyMs: processingTimeMs,
    ...versionUsage(task.agent),
  });
  return replyOutcome(row);
}

/** The one mapping of a stored reply (written here, or read back: lib/conversations/trigger.ts) to its outcome. */
export function replyOutcome(row: ReplyRow): ReplyOutcome {
  if (row.status === "error" || !row.token_usage) {
    return {
      status: "error",
      message: row.error?.message ?? "",
      reason: row.error?.reason ?? "upstream_error",
      completedAt: row.completedAt,
    };
  }
  return {
    status: "completed",
    content: row.content,
    model: row.model,
    token_usage: row.token_usage,
    cost: row.cost,
    processingTimeMs: row.processingTimeMs,
    completedAt: row.completedAt,
  };
}

/**
 * Produces and stores the reply of `task`, waiting for a slot first. Resolves with what was stored
 * (or `taken`); rejects only when the outcome could not be stored (the lease then lets recovery
 * try again).
 */
export async function runReply(task: ReplyTask): Promise<ReplyOutcome> {
  state.owned.add(task.messageId);
  ensureRenewer();
  try {
    const parsed = RuntimeConfig.safeParse(task.agent.runtime);
    if (!parsed.success) {
      return await store(task, { failed: "The agent's runtime settings are invalid.", reason: "upstream_error" });
    }
    // The agent's own limit, then a slot of the process: a reply waits in its organization's line,
    // so that one flooding organization cannot fill the line everyone shares.
    const releaseAgent = await agentGate(task.agent, parsed.data)?.acquire();
    try {
      const release = await state.slots.acquire(task.agent.organizationId);
      try {
        return await store(task, await produce(task, parsed.data));
      } finally {
        release();
      }
    } finally {
      releaseAgent?.();
      pruneGates(state.agentGates, task.agent.id);
    }
  } finally {
    state.owned.delete(task.messageId);
    notifyReplyDone(task.messageId);
  }
}

/**
 * Resolves once this process is producing no reply (graceful shutdown), or after `timeoutMs`: a
 * reply still running then is taken over by another process once its lease runs out.
 */
export async function repliesSettled(timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (state.owned.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** Starts a reply in the background; failures are logged (recovery will retry after the lease). */
export function startReply(task: ReplyTask): Promise<ReplyOutcome> {
  const running = runReply(task);
  running.catch((err) =>
    log.error({ message_id: task.messageId, err: { message: (err as Error).message } }, "reply could not be stored"),
  );
  return running;
}

/**
 * Runs `fn` in one of the process's reply slots of `organizationId`, as a live reply would: an
 * evaluation's model calls (lib/evaluations) wait in their organization's line, so that they never
 * take the slots another organization's live replies are owed.
 */
export async function withReplySlot<T>(organizationId: string, fn: () => Promise<T>): Promise<T> {
  const release = await state.slots.acquire(organizationId);
  try {
    return await fn();
  } finally {
    release();
  }
}
