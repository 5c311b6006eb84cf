// One item through the steps of a workflow, from a given step. Pure apart from http/llm/wait steps;
// the engine persists the outcome. Expressions see {item, inputs} (also bound as $item, $inputs).
import jsonata from "jsonata";
import { log } from "../log";
import { complete, isRuntimeError, postJson, type RuntimeConfig, type SecretLookup } from "../runtime";
import { sleep } from "../runtime/types";
import { TEMPLATE_RE, type Step } from "./schema";

export type Outcome =
  | { status: "completed"; data: unknown; stepIndex: number }
  | { status: "skipped"; data: unknown; stepIndex: number; stepId: string }
  | {
      status: "failed";
      data: unknown;
      /** The step that failed: retry of a fatal failure starts here again. */
      stepIndex: number;
      stepId: string;
      error: string;
      fatal: boolean;
      exception: boolean;
    }
  | {
      status: "needs_review";
      data: unknown;
      /** Where an approval continues: after a review step, or the failing step again for an exception. */
      stepIndex: number;
      stepId: string;
      error: string;
      exception: boolean;
    };

export interface StepContext {
  runId: string;
  inputs: Record<string, unknown>;
  /** The agent's runtime, used by llm steps that name none. */
  runtime: RuntimeConfig;
  /** Aborted on cancel (or when another engine takes over): in-flight calls stop. */
  signal: AbortSignal;
  /** The run's organization's secrets, for credentials its steps name. */
  secrets?: SecretLookup;
}

type Compiled = ReturnType<typeof jsonata>;
const cache = new Map<string, Compiled>();
const MAX_CACHE = 5_000;

function compiled(expr: string): Compiled {
  let c = cache.get(expr);
  if (!c) {
    if (cache.size >= MAX_CACHE) cache.clear();
    c = jsonata(expr);
    cache.set(expr, c);
  }
  return c;
}

export async function evaluate(expr: string, item: unknown, inputs: Record<string, unknown>): Promise<unknown> {
  return compiled(expr).evaluate({ item, inputs }, { item, inputs });
}

/** JSONata truthiness for `when`: an absent result (no match) is false. */
const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));

/** Thrown for an expected, caller-safe step error (the message may reach API callers). */
class StepError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function withField(item: unknown, step: Step & { into?: string }, value: unknown): unknown {
  if (!isObject(item)) throw new StepError(`the item is not an object, so the answer cannot be stored in it`);
  return { ...item, [step.into ?? step.id]: value };
}

async function renderPrompt(tpl: string, item: unknown, inputs: Record<string, unknown>): Promise<string> {
  let out = "";
  let last = 0;
  for (const m of tpl.matchAll(TEMPLATE_RE)) {
    out += tpl.slice(last, m.index);
    const v = await evaluate(m[1]!.trim(), item, inputs);
    out += v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);
    last = m.index! + m[0].length;
  }
  return out + tpl.slice(last);
}

/** Caller-safe text for an unexpected error: upstream wording stays in the logs (DESIGN "Errors"). */
function describe(step: Step, e: unknown): string {
  const prefix = `Step "${step.id}" (${step.type})`;
  if (isRuntimeError(e)) {
    // Our own wording (e.g. a refused upstream address and the setting that would allow it).
    if (e.publicMessage) return `${prefix}: ${e.publicMessage}`;
    return e.kind === "timeout"
      ? `${prefix}: the upstream did not answer in time`
      : `${prefix}: the upstream returned an error`;
  }
  if (e instanceof StepError) return `${prefix}: ${e.message}`;
  const jsonataMessage = (e as { message?: string })?.message;
  return `${prefix}: expression error: ${jsonataMessage ?? String(e)}`;
}

/** Steps that touch the outside world or take time: the engine persists right after such an item. */
export const hasSideEffects = (steps: Step[], from: number) =>
  steps.slice(from).some((s) => s.type === "http" || s.type === "llm" || s.type === "wait");

/**
 * Runs `item` through steps[from..]. Returns its outcome, or null when ctx.signal aborted in the
 * middle (the item stays pending and is processed again later).
 */
export async function runSteps(opts: {
  steps: Step[];
  from: number;
  item: unknown;
  itemIndex: number;
  ctx: StepContext;
}): Promise<Outcome | null> {
  const { steps, ctx } = opts;
  let item = opts.item;
  for (let i = opts.from; i < steps.length; i++) {
    const step = steps[i]!;
    if (ctx.signal.aborted) return null;
    try {
      const matched = step.when === undefined || truthy(await evaluate(step.when, item, ctx.inputs));
      if (!matched) continue;
      switch (step.type) {
        case "transform":
          item = await evaluate(step.expression, item, ctx.inputs);
          break;
        case "fail":
          return {
            status: "failed",
            data: item,
            stepIndex: i,
            stepId: step.id,
            error: step.message ?? `Step "${step.id}" (fail) matched`,
            fatal: step.fatal,
            exception: false,
          };
        case "review":
          return {
            status: "needs_review",
            data: item,
            stepIndex: i + 1,
            stepId: step.id,
            error: step.message ?? `Step "${step.id}" (review) matched`,
            exception: false,
          };
        case "skip":
          return { status: "skipped", data: item, stepIndex: i, stepId: step.id };
        case "http": {
          const body = step.body
            ? await evaluate(step.body, item, ctx.inputs)
            : { run_id: ctx.runId, step_id: step.id, item_index: opts.itemIndex, item, inputs: ctx.inputs };
          const answer = await postJson(step.url, body ?? null, {
            timeoutMs: step.timeout_ms,
            headers: step.headers,
            signal: ctx.signal,
            secrets: ctx.secrets,
          });
          item = withField(item, step, answer);
          break;
        }
        case "llm": {
          const prompt = await renderPrompt(step.prompt, item, ctx.inputs);
          const reply = await complete(step.runtime ?? ctx.runtime, prompt, {
            signal: ctx.signal,
            system: step.system,
            secrets: ctx.secrets,
          });
          item = withField(item, step, reply.content);
          break;
        }
        case "wait":
          await sleep(step.ms, ctx.signal);
          break;
      }
    } catch (e) {
      if (ctx.signal.aborted) return null;
      const error = describe(step, e);
      log.warn(
        { run_id: ctx.runId, item_index: opts.itemIndex, step_id: step.id, err: (e as Error)?.message },
        "workflow step error",
      );
      if (step.on_error === "review")
        return { status: "needs_review", data: item, stepIndex: i, stepId: step.id, error, exception: true };
      return {
        status: "failed",
        data: item,
        stepIndex: i,
        stepId: step.id,
        error,
        fatal: step.on_error === "fail_run",
        exception: true,
      };
    }
  }
  return { status: "completed", data: item, stepIndex: steps.length };
}
