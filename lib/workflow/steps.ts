// One item through the steps of a workflow, from a given step. Expressions are evaluated by the
// expression evaluator (lib/expressions: other processes, bounded in time and memory), which runs
// the item through every step it can and hands back its outcome, or the http/llm/wait step to
// perform; this module performs that step and asks again from the next one. Expressions see
// {item, inputs} (also bound as $item, $inputs). Items travel as JSON text: the engine stores the
// text it gets, and only an item that meets an http/llm step is parsed here.
import type { Evaluator, ItemResult, PlanStep } from "../expressions";
import { log } from "../log";
import { complete, isRuntimeError, postJson, type RuntimeConfig, type SecretLookup } from "../runtime";
import { sleep } from "../runtime/types";
import { templateParts, type Step } from "./schema";
import { evaluationSegment, type Segment } from "../runs/timeline";

export type Outcome =
  | { status: "completed"; data: string; stepIndex: number }
  | { status: "skipped"; data: string; stepIndex: number; stepId: string }
  | {
      status: "failed";
      data: string;
      /** The step that failed: retry of a fatal failure starts here again. */
      stepIndex: number;
      stepId: string;
      error: string;
      fatal: boolean;
      exception: boolean;
    }
  | {
      status: "needs_review";
      /** The item (JSON text) as it stopped. */
      data: string;
      /** Where an approval continues: after a review step, or the failing step again for an exception. */
      stepIndex: number;
      stepId: string;
      error: string;
      exception: boolean;
    };

/** An outcome with the item's trace of this pass (./timeline.ts): appended to its step timeline. */
export type Traced = Outcome & { trace: Segment[] };

export interface StepContext {
  runId: string;
  inputs: Record<string, unknown>;
  /** `inputs` as the evaluator takes them: JSON text under a key naming it (EvalRequest.inputs). */
  evalInputs: { key: string; json: string };
  /** The agent's runtime, used by llm steps that name none. */
  runtime: RuntimeConfig;
  /** Aborted on cancel (or when another engine takes over): in-flight calls stop. */
  signal: AbortSignal;
  /** The run's organization's secrets, for credentials its steps name. */
  secrets?: SecretLookup;
  evaluator: Evaluator;
  /** An evaluation's replay (lib/evaluations): calls go through it instead of the outside world. */
  replay?: Replay;
}

/**
 * How a replay performs the calls of its steps: an http step's answer (a recorded one, or a live call
 * the admin asked for), every model call's usage counted, waits not waited.
 */
export interface Replay {
  http(step: Extract<Step, { type: "http" }>, body: unknown, itemIndex: number): Promise<unknown>;
  onModelCall(reply: { token_usage: { total_tokens: number }; cost: number }): void;
}

/** Thrown by a replay's http hook for a step that has no recorded answer: the item stops there, skipped. */
export class NoRecording extends Error {}

/** The largest http answer (JSON text) kept in an item's trace for replays (lib/evaluations). */
export const MAX_RECORDED_CHARS = 64 * 1024;

const plans = new WeakMap<Step[], PlanStep[]>();

/** What the evaluator needs of the steps (made once per definition). */
export function planOf(steps: Step[]): PlanStep[] {
  let plan = plans.get(steps);
  if (!plan) {
    plan = steps.map((s): PlanStep => {
      switch (s.type) {
        case "transform":
          return { type: s.type, when: s.when, expression: s.expression };
        case "fail":
        case "review":
        case "skip":
          return { type: s.type, when: s.when };
        case "http":
          return { type: s.type, when: s.when, body: s.body };
        case "llm":
          return { type: s.type, when: s.when, prompt: templateParts(s.prompt) };
        case "wait":
          return { type: s.type, when: s.when };
      }
    });
    plans.set(steps, plan);
  }
  return plan;
}

/** Thrown for an expected, caller-safe step error (the message may reach API callers). */
class StepError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function withField(item: unknown, step: Step & { into?: string }, value: unknown): string {
  if (!isObject(item)) throw new StepError(`the item is not an object, so the answer cannot be stored in it`);
  return JSON.stringify({ ...item, [step.into ?? step.id]: value });
}

const prefix = (step: Step) => `Step "${step.id}" (${step.type})`;

/** Caller-safe text for an error of a call: upstream wording stays in the logs (docs/api.md, Errors). */
function describe(step: Step, e: unknown): string {
  if (isRuntimeError(e)) {
    // Our own wording (e.g. a refused upstream address and the setting that would allow it).
    if (e.publicMessage) return `${prefix(step)}: ${e.publicMessage}`;
    return e.kind === "timeout"
      ? `${prefix(step)}: the upstream did not answer in time`
      : `${prefix(step)}: the upstream returned an error`;
  }
  if (e instanceof StepError) return `${prefix(step)}: ${e.message}`;
  return `${prefix(step)}: the step failed unexpectedly`;
}

/** Steps that touch the outside world or take time: the engine persists right after such an item. */
export const hasSideEffects = (steps: Step[], from: number) =>
  steps.slice(from).some((s) => s.type === "http" || s.type === "llm" || s.type === "wait");

/** An unexpected error in `steps[blame]`: its `on_error` says what becomes of the item. */
function exception(
  steps: Step[],
  at: { blame: number; stepIndex: number; data: string; error: string },
  where: { runId: string; itemIndex: number },
  /** The error's own words, for the logs only. */
  cause = at.error,
): Outcome {
  const step = steps[at.blame]!;
  log.warn({ run_id: where.runId, item_index: where.itemIndex, step_id: step.id, err: cause }, "workflow step error");
  const common = { data: at.data, stepIndex: at.stepIndex, stepId: step.id, error: at.error, exception: true };
  if (step.on_error === "review") return { status: "needs_review", ...common };
  return { status: "failed", ...common, fatal: step.on_error === "fail_run" };
}

/**
 * The outcome of an evaluator result that needs no call: the item finished, a fail/review/skip
 * step matched, or an expression failed (`expression error: ...`, or the bound it ran into).
 */
export function outcomeOf(
  steps: Step[],
  r: Exclude<ItemResult, { k: "call" }>,
  where: { runId: string; itemIndex: number },
): Outcome {
  if (r.k === "done") return { status: "completed", data: r.json, stepIndex: steps.length };
  if (r.k === "error") {
    const step = steps[r.blame]!;
    const error = `${prefix(step)}: ${r.code ?? "expression error"}: ${r.message}`;
    return exception(steps, { blame: r.blame, stepIndex: r.step, data: r.json, error }, where);
  }
  const step = steps[r.step]!;
  const message = "message" in step ? step.message : undefined;
  switch (step.type) {
    case "fail":
      return {
        status: "failed",
        data: r.json,
        stepIndex: r.step,
        stepId: step.id,
        error: message ?? `Step "${step.id}" (fail) matched`,
        fatal: step.fatal,
        exception: false,
      };
    case "review":
      return {
        status: "needs_review",
        data: r.json,
        stepIndex: r.step + 1,
        stepId: step.id,
        error: message ?? `Step "${step.id}" (review) matched`,
        exception: false,
      };
    default:
      return { status: "skipped", data: r.json, stepIndex: r.step, stepId: step.id };
  }
}

/** outcomeOf, with the segment of the evaluation (started at `at`, the item entering at step `from`). */
export function tracedOutcome(
  steps: Step[],
  r: Exclude<ItemResult, { k: "call" }>,
  at: { from: number; at: number },
  where: { runId: string; itemIndex: number },
  trace: Segment[] = [],
): Traced {
  const outcome = outcomeOf(steps, r, where);
  const error = "error" in outcome ? outcome.error : undefined;
  trace.push(evaluationSegment(r, at.from, at.at, steps.length, error));
  return { ...outcome, trace };
}

/** The `Idempotency-Key` of an http step's call: the run, the item and the step. */
export const stepIdempotencyKey = (runId: string, itemIndex: number, stepId: string) =>
  `${runId}/${itemIndex}/${stepId}`;

/**
 * What a call adds to its trace segment: an http answer (for replays, when small enough) or an llm
 * step's token count (a replay's cost estimate).
 */
type Recorded = { response?: unknown; tokens?: number };

/**
 * Performs an http/llm/wait step for the item (JSON text); returns the item as it leaves the step,
 * with what its trace records of the call.
 */
async function perform(
  step: Step,
  call: Extract<ItemResult, { k: "call" }>,
  itemIndex: number,
  ctx: StepContext,
): Promise<{ json: string; recorded?: Recorded }> {
  switch (step.type) {
    case "http": {
      const item: unknown = JSON.parse(call.json);
      const body =
        call.body !== undefined
          ? JSON.parse(call.body)
          : { run_id: ctx.runId, step_id: step.id, item_index: itemIndex, item, inputs: ctx.inputs };
      if (ctx.replay) return { json: withField(item, step, await ctx.replay.http(step, body, itemIndex)) };
      const answer = await postJson(step.url, body, {
        timeoutMs: step.timeout_ms,
        headers: step.headers,
        signal: ctx.signal,
        secrets: ctx.secrets,
        // The same for every attempt of this item's step (retries, a run's retry, a handover after a
        // worker stopped or died), so that a receiver can drop a repeat (docs/workflows.md).
        idempotencyKey: stepIdempotencyKey(ctx.runId, itemIndex, step.id),
      });
      const small = answer === undefined || JSON.stringify(answer).length <= MAX_RECORDED_CHARS;
      return { json: withField(item, step, answer), ...(small ? { recorded: { response: answer ?? null } } : {}) };
    }
    case "llm": {
      const reply = await complete(step.runtime ?? ctx.runtime, call.prompt ?? "", {
        signal: ctx.signal,
        system: step.system,
        secrets: ctx.secrets,
      });
      ctx.replay?.onModelCall(reply);
      return {
        json: withField(JSON.parse(call.json), step, reply.content),
        recorded: { tokens: reply.token_usage.total_tokens },
      };
    }
    case "wait":
      // A replay does not wait: what the step does to the item is nothing.
      if (!ctx.replay) await sleep(step.ms, ctx.signal);
      return { json: call.json };
    default:
      throw new Error(`step ${step.id} (${step.type}) is not a call`);
  }
}

/**
 * Runs the item (JSON text) through steps[from..]. Returns its outcome with the trace of the way
 * (./timeline.ts), or null when ctx.signal aborted in the middle (the item stays pending and is
 * processed again later; its trace of this pass is not kept).
 */
export async function runItem(opts: {
  steps: Step[];
  from: number;
  json: string;
  itemIndex: number;
  ctx: StepContext;
}): Promise<Traced | null> {
  const { steps, ctx } = opts;
  const where = { runId: ctx.runId, itemIndex: opts.itemIndex };
  const trace: Segment[] = [];
  let next = { json: opts.json, from: opts.from };
  for (;;) {
    if (ctx.signal.aborted) return null;
    if (next.from >= steps.length) return { status: "completed", data: next.json, stepIndex: steps.length, trace };
    const at = Date.now();
    const [result] = await ctx.evaluator.evaluate({ steps: planOf(steps), inputs: ctx.evalInputs, items: [next] });
    if (result!.k !== "call") return tracedOutcome(steps, result!, { from: next.from, at }, where, trace);
    const call = result!;
    trace.push(evaluationSegment(call, next.from, at, steps.length));
    if (ctx.signal.aborted) return null;
    const step = steps[call.step]!;
    const started = Date.now();
    try {
      const done = await perform(step, call, opts.itemIndex, ctx);
      next = { json: done.json, from: call.step + 1 };
      trace.push({ at: started, step: call.step, ms: Date.now() - started, ...done.recorded });
    } catch (e) {
      if (ctx.signal.aborted) return null;
      if (e instanceof NoRecording) {
        trace.push({ at: started, step: call.step, ms: 0, error: "no_recording" });
        return { status: "skipped", data: call.json, stepIndex: call.step, stepId: step.id, trace };
      }
      const error = describe(step, e);
      trace.push({ at: started, step: call.step, ms: Date.now() - started, error });
      const at = { blame: call.step, stepIndex: call.step, data: call.json, error };
      return { ...exception(steps, at, where, (e as Error)?.message ?? String(e)), trace };
    }
  }
}
