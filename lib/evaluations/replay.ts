// Replaying one case of an evaluation on one side (docs/api.md, Evaluations): a session's user
// turns sent to a version's runtime, or a run's items through a version's workflow steps. Nothing
// is written here and nothing leaves but model calls (and http steps only when the admin asked for
// live calls): the caller stores the sides in evaluation_cases, so no session, message, run, usage
// figure, callback or alert ever sees a replay.
import { randomUUID } from "node:crypto";
import { HISTORY_LIMIT, withReplySlot } from "../conversations/replies";
import { prisma } from "../db";
import { publicBaseUrl } from "../env";
import type { Evaluator } from "../expressions";
import { backgroundStep } from "../lifecycle";
import { refreshFileUrls, resolveFileRefs } from "../files/refs";
import type { Message, Run, RunItem } from "../generated/prisma/client";
import { generateReply, isRuntimeError, postJson, RuntimeConfig, toApiError, GENERIC_RUNTIME_ERROR } from "../runtime";
import { stepsOf } from "../runs/timeline";
import { secretLookup } from "../secrets/service";
import type { AgentAtVersion } from "../serving";
import { StoredWorkflowDefinition } from "../workflow/schema";
import { NoRecording, runItem, type Replay, type StepContext } from "../workflow/steps";
import { RUN_CASE_ITEMS, SESSION_CASE_TURNS, type CaseSide } from "./schemas";

/**
 * A replay is background work: its database reads and writes run a step at a time between the
 * process's live requests, each waiting at most this long for a gap (lib/lifecycle.ts).
 */
export const QUIET_WAIT_MS = 100;

/** A step of a replay's own work (database statements), between live requests. */
export const step = <T>(work: () => Promise<T>) => backgroundStep(work, QUIET_WAIT_MS);

type Turn = { role: "user" | "assistant"; content: string };

/** What a case replays of a session, read when its turn comes (the session may have grown or gone since). */
export interface SessionReplay {
  /** The recorded completed messages before the first replayed turn, oldest first. */
  history: Turn[];
  /** The user turns replayed, oldest first, each with the reply recorded for it. */
  turns: { message: Message; reply: Message | null }[];
}

/** A session's replay: its last user turn, or its last SESSION_CASE_TURNS of them. Null: no user turn. */
export async function readSession(sessionId: string, turns: "last" | "all"): Promise<SessionReplay | null> {
  const db = await prisma();
  const recent = (
    await db.message.findMany({
      where: { sessionId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 2 * (SESSION_CASE_TURNS + HISTORY_LIMIT),
    })
  ).reverse();
  const users = recent.filter((m) => m.role === "user");
  if (!users.length) return null;
  const replayed = turns === "last" ? users.slice(-1) : users.slice(-SESSION_CASE_TURNS);
  const first = recent.indexOf(replayed[0]!);
  const history = recent
    .slice(0, first)
    .filter((m) => m.status === "completed")
    .slice(-HISTORY_LIMIT)
    .map((m) => ({ role: m.role as Turn["role"], content: m.content }));
  const replyTo = new Map(recent.filter((m) => m.replyToId).map((m) => [m.replyToId!, m]));
  return { history, turns: replayed.map((message) => ({ message, reply: replyTo.get(message.id) ?? null })) };
}

/** The input a case shows and its checks see: the user's message, or every replayed one. */
export const sessionInput = (s: SessionReplay, turns: "last" | "all") =>
  turns === "last" ? s.turns[0]!.message.content : s.turns.map((t) => t.message.content);

/** The recorded side of a session case: the replies production sent at the time. */
export function recordedSessionSide(s: SessionReplay, turns: "last" | "all"): CaseSide {
  const outputs = s.turns.map((t) => (t.reply?.status === "completed" ? t.reply.content : null));
  const failed = s.turns.find((t) => !t.reply || t.reply.status !== "completed");
  const latencies = s.turns.map((t) => t.reply?.processingTimeMs ?? 0);
  return {
    output: turns === "last" ? outputs[0] : outputs,
    error: failed
      ? failed.reply?.status === "error"
        ? (((failed.reply.error as { message?: string } | null)?.message as string | undefined) ?? "the reply failed")
        : "no reply was recorded"
      : null,
    latency_ms: failed && !failed.reply ? null : latencies.reduce((a, b) => a + b, 0),
    tokens: s.turns.reduce((a, t) => a + (t.reply?.totalTokens ?? 0), 0),
    cost_usd: s.turns.reduce((a, t) => a + (t.reply?.cost ?? 0), 0),
  };
}

/** The payload's attachments and metadata as a trigger recorded them, with links signed now. */
async function filesOf(message: Message, agent: AgentAtVersion) {
  const payload = (message.payload ?? {}) as { attachments?: unknown[]; metadata?: Record<string, unknown> };
  const files = {
    attachments: Array.isArray(payload.attachments) ? payload.attachments : [],
    metadata: payload.metadata ?? {},
  };
  try {
    return await refreshFileUrls(files, {
      organizationId: agent.organizationId,
      agentId: agent.id,
      baseUrl: publicBaseUrl(),
    });
  } catch {
    return files;
  }
}

/**
 * A session case replayed on `agent` (a version's configuration): each turn sent with the history
 * this side itself produced (the recorded history before the first replayed turn, then its own
 * replies). One attempt per turn, no retry: a failure is what the case shows.
 */
export async function replaySession(
  s: SessionReplay,
  turns: "last" | "all",
  agent: AgentAtVersion,
  opts: { caseId: string; signal: AbortSignal },
): Promise<CaseSide> {
  const config = RuntimeConfig.safeParse(agent.runtime);
  const outputs: (string | null)[] = [];
  let tokens = 0;
  let cost = 0;
  let latency = 0;
  let error: string | null = null;
  const history = [...s.history];
  if (!config.success) error = "The version's runtime settings are invalid.";
  for (const [i, turn] of s.turns.entries()) {
    if (error || !config.success) break;
    const files = await step(() => filesOf(turn.message, agent));
    const started = Date.now();
    try {
      const reply = await withReplySlot(agent.organizationId, () =>
        generateReply(config.data, {
          agentId: agent.id,
          sessionId: `evaluation:${opts.caseId}`,
          messageId: `${opts.caseId}/${i}`,
          message: turn.message.content,
          attachments: files.attachments,
          metadata: files.metadata,
          history: history.slice(-HISTORY_LIMIT),
          signal: opts.signal,
          secrets: secretLookup(agent.organizationId),
        }),
      );
      latency += Date.now() - started;
      tokens += reply.token_usage.total_tokens;
      cost += reply.cost;
      outputs.push(reply.content);
      history.push({ role: "user", content: turn.message.content }, { role: "assistant", content: reply.content });
    } catch (e) {
      latency += Date.now() - started;
      outputs.push(null);
      error = isRuntimeError(e) ? toApiError(e).message : GENERIC_RUNTIME_ERROR;
    }
  }
  return {
    output: turns === "last" ? (outputs[0] ?? null) : outputs,
    error,
    latency_ms: latency,
    tokens,
    cost_usd: cost,
  };
}

/** An item of a run case's output: how it ended, as it left, and the error that stopped it. */
export interface ItemOutput {
  index: number;
  status: string;
  data: unknown;
  error: string | null;
  exception: boolean;
}

export interface RunReplay {
  run: Run;
  items: RunItem[];
}

/** A run's replay: its inputs and first RUN_CASE_ITEMS items. Null: the run is gone. */
export async function readRun(runId: string, organizationId: string): Promise<RunReplay | null> {
  const db = await prisma();
  const run = await db.run.findFirst({ where: { id: runId, organizationId } });
  if (!run) return null;
  const items = await db.runItem.findMany({ where: { runId }, orderBy: { index: "asc" }, take: RUN_CASE_ITEMS });
  return { run, items };
}

/** The recorded side of a run case: its items as the run ended them (pending ones as they stand). */
export function recordedRunSide(r: RunReplay): CaseSide {
  const output: ItemOutput[] = r.items.map((i) => ({
    index: i.index,
    status: i.status,
    data: i.result ?? i.data,
    error: i.error,
    exception: i.exception,
  }));
  return { output, error: null, latency_ms: null, tokens: 0, cost_usd: 0 };
}

/** Each item's recorded http answers by step id: the last successful call of each step in its trace. */
function recordingsOf(definition: unknown, trace: unknown): Map<string, unknown> {
  const names = stepsOf(definition);
  const found = new Map<string, unknown>();
  if (!Array.isArray(trace)) return found;
  for (const seg of trace as Record<string, unknown>[]) {
    if (typeof seg?.step !== "number" || seg.error !== undefined || !("response" in seg)) continue;
    const name = names[seg.step];
    if (name?.type === "http") found.set(name.step_id, seg.response);
  }
  return found;
}

/**
 * A run case replayed on `agent`'s workflow: each item through its steps from the first, with the
 * http answers recorded by the original run (or live calls when asked for, with their own
 * Idempotency-Key), llm steps calling the version's runtime and waits skipped. An item whose http
 * step has no recording stops there: `skipped_no_recording`.
 */
export async function replayRun(
  r: RunReplay,
  agent: AgentAtVersion,
  opts: { caseId: string; signal: AbortSignal; evaluator: Evaluator; liveCalls: boolean; onHttpCall?: () => void },
): Promise<CaseSide> {
  const definition = StoredWorkflowDefinition.safeParse(agent.workflow);
  const runtime = RuntimeConfig.safeParse(agent.runtime ?? { type: "echo" });
  if (!definition.success || !runtime.success) {
    return {
      output: [],
      error: "The version's workflow or runtime settings are invalid.",
      latency_ms: 0,
      tokens: 0,
      cost_usd: 0,
    };
  }
  const inputs = await resolveFileRefs(r.run.inputs as Record<string, unknown>, {
    organizationId: r.run.organizationId,
    agentId: r.run.agentId,
    baseUrl: publicBaseUrl(),
  }).catch(() => r.run.inputs as Record<string, unknown>);
  let tokens = 0;
  let cost = 0;
  const secrets = secretLookup(agent.organizationId);
  const output: ItemOutput[] = [];
  const started = Date.now();
  for (const item of r.items) {
    if (opts.signal.aborted) break;
    // Each item starts in a gap between live requests (its steps' calls then run outside any step).
    await step(async () => undefined);
    const recordings = recordingsOf(r.run.definition, item.steps);
    let gap = false;
    const replay: Replay = {
      http: async (step, body, itemIndex) => {
        if (opts.liveCalls) {
          opts.onHttpCall?.();
          return postJson(step.url, body, {
            timeoutMs: step.timeout_ms,
            headers: step.headers,
            signal: opts.signal,
            secrets,
            idempotencyKey: `evaluation/${opts.caseId}/${itemIndex}/${step.id}`,
          });
        }
        if (!recordings.has(step.id)) {
          gap = true;
          throw new NoRecording(step.id);
        }
        return recordings.get(step.id);
      },
      onModelCall: (reply) => {
        tokens += reply.token_usage.total_tokens;
        cost += reply.cost;
      },
    };
    const ctx: StepContext = {
      runId: `evaluation:${opts.caseId}`,
      inputs,
      evalInputs: { key: randomUUID(), json: JSON.stringify(inputs) },
      runtime: runtime.data,
      signal: opts.signal,
      evaluator: opts.evaluator,
      secrets,
      replay,
    };
    const outcome = await withReplySlot(agent.organizationId, () =>
      runItem({ steps: definition.data.steps, from: 0, json: JSON.stringify(item.data), itemIndex: item.index, ctx }),
    );
    if (!outcome) break;
    output.push({
      index: item.index,
      status: gap ? "skipped_no_recording" : outcome.status,
      data: JSON.parse(outcome.data) as unknown,
      error: "error" in outcome ? outcome.error : null,
      exception: "exception" in outcome ? outcome.exception : false,
    });
  }
  return { output, error: null, latency_ms: Date.now() - started, tokens, cost_usd: cost };
}
