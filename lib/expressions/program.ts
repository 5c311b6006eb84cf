// The code that evaluates a workflow's expressions: it runs items through the steps that need no
// outside world (transform, fail, review, skip, every `when`, an http step's body, an llm step's
// prompt) and hands back each item's outcome, or the http/llm/wait call to perform for it.
//
// Its text is what the evaluator processes run (./pool.ts sends `expressionProgram.toString()`),
// so the function below refers to nothing outside itself: no imports at run time (types only),
// no module-level helpers; jsonata comes in as an argument. The benchmark also runs it in-process,
// as the baseline of what isolation costs (bench/workflow.bench.ts).
import type jsonataModule from "jsonata";

/** A bound an evaluation ran into: the item fails with this code (docs/workflows.md, "Bounds"). */
export type BoundCode = "expression_timeout" | "expression_too_large";

/** What the program needs of a step: the expressions it evaluates (a prompt split into its parts). */
export type PlanStep =
  | { type: "transform"; when?: string; expression: string }
  | { type: "fail" | "review" | "skip"; when: string }
  | { type: "http"; when?: string; body?: string }
  | { type: "llm"; when?: string; prompt: (string | { expr: string })[] }
  | { type: "wait"; when?: string };

export interface EvalItem {
  /** The item as JSON text. */
  json: string;
  /** The step it starts at. */
  from: number;
}

export interface EvalRequest {
  steps: PlanStep[];
  /**
   * The run's inputs as JSON text, under a key that names this text: they may be large (an array
   * input carries every item), so an evaluator keeps the last `inputsKept` of them parsed, and the
   * pool sends the text only to a process that does not have the key (`json` absent otherwise).
   */
  inputs: { key: string; json?: string };
  items: EvalItem[];
}

/**
 * One item's outcome. `json` is the item as JSON text: as it left the last step (`done`), as it
 * entered step `step` (`stop`, `call`) or the step to start again from (`error`). `unmet` lists the
 * steps of this evaluation whose `when` was false (absent when none was): the run's step timeline.
 */
export type ItemResult = (
  | { k: "done"; json: string }
  /** A fail, review or skip step matched. */
  | { k: "stop"; step: number; json: string }
  /** An http, llm or wait step to perform, with its body (JSON text) or rendered prompt. */
  | { k: "call"; step: number; json: string; body?: string; prompt?: string }
  /** `blame` is the step whose expression failed (its `on_error` applies); `step` is where the item
   *  starts again: `blame` itself, or the first step of this evaluation when the item as it
   *  entered `blame` is not available (it was too large, or the evaluator died). */
  | { k: "error"; step: number; blame: number; json: string; code?: BoundCode; message: string }
) & { unmet?: number[] };

export interface ProgramLimits {
  /** Per evaluation (one expression of one item), checked by JSONata as it evaluates. */
  timeoutMs: number;
  /** Nesting of JSONata's evaluation (non-tail recursion). */
  maxDepth: number;
  /** Largest JSON text of an item, http body or prompt produced by expressions. */
  maxResultChars: number;
  /** A request stops taking new items after this long or this much output (the rest come again). */
  budgetMs: number;
  budgetChars: number;
  /** Inputs kept parsed, least recently used out first (the pool mirrors this to know what a process has). */
  inputsKept: number;
}

/** Careful mode: the step about to be evaluated, and each item's result as soon as it is known. */
export type Report = (message: { at: [number, number] } | { result: ItemResult }) => void;

/**
 * `watch` (optional, shared memory): slot 0 counts evaluations, slot 1 is 1 while a request runs.
 * The evaluator process's watchdog kills the process when the count stays still for too long.
 */
export function expressionProgram(jsonata: typeof jsonataModule, limits: ProgramLimits, watch?: Int32Array) {
  type Compiled = ReturnType<typeof jsonataModule>;
  type Failure = { code?: BoundCode; message: string };
  const cache = new Map<string, Compiled>();
  /** Parsed inputs by key, least recently used first (a Map keeps insertion order). */
  const kept = new Map<string, unknown>();
  let inputs: unknown;

  const compiled = (src: string): Compiled => {
    let c = cache.get(src);
    if (!c) {
      if (cache.size >= 2_000) cache.clear();
      c = jsonata(src, { timeout: limits.timeoutMs, stack: limits.maxDepth });
      cache.set(src, c);
    }
    return c;
  };
  const tick = () => {
    if (watch) Atomics.add(watch, 0, 1);
  };
  const evaluate = (src: string, item: unknown): Promise<unknown> => {
    tick();
    return compiled(src).evaluate({ item, inputs }, { item, inputs });
  };
  /** JSONata truthiness for `when`: an absent result (no match) is false. */
  const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
  /** JSON text as the database would store it: a function or an absent value becomes null. */
  const serialise = (v: unknown) => JSON.stringify(v) ?? "null";
  const tooLarge = (what: string): Failure => ({
    code: "expression_too_large",
    message: `${what} is larger than ${limits.maxResultChars} characters as JSON`,
  });

  function failure(e: unknown): Failure {
    const err = e as { code?: string; message?: string } | undefined;
    if (err?.code === "D1012")
      return { code: "expression_timeout", message: `the expression did not finish within ${limits.timeoutMs} ms` };
    if (err?.code === "D1011" || (e instanceof RangeError && /call stack/i.test(e.message)))
      return { code: "expression_too_large", message: "the expression nested or recursed too deeply" };
    if (e instanceof RangeError)
      return { code: "expression_too_large", message: "the expression built a string or list larger than allowed" };
    return { message: err?.message ?? String(e) };
  }

  async function runItem(steps: PlanStep[], input: EvalItem, index: number, report?: Report): Promise<ItemResult> {
    const unmet: number[] = [];
    const result = await through(steps, input, index, unmet, report);
    if (unmet.length) result.unmet = unmet;
    return result;
  }

  /** The item through the steps from `input.from`; each step whose `when` is false goes in `unmet`. */
  async function through(
    steps: PlanStep[],
    input: EvalItem,
    index: number,
    unmet: number[],
    report?: Report,
  ): Promise<ItemResult> {
    tick();
    const original: unknown = JSON.parse(input.json);
    let item = original;
    let lastTransform = -1;
    /** The item as JSON text, unless expressions made it too large (the input is taken as it is). */
    const text = (value: unknown) => {
      if (value === original) return input.json;
      const json = serialise(value);
      return json.length > limits.maxResultChars ? undefined : json;
    };
    /** The item starts again at the first step of this evaluation, as it came in. */
    const restart = (blame: number, f: Failure): ItemResult => ({
      k: "error",
      step: input.from,
      blame,
      json: input.json,
      ...f,
    });
    const fail = (blame: number, entering: unknown, f: Failure): ItemResult => {
      const json = text(entering);
      return json === undefined ? restart(blame, f) : { k: "error", step: blame, blame, json, ...f };
    };
    const at = (i: number) => report?.({ at: [index, i] });

    for (let i = input.from; i < steps.length; i++) {
      const step = steps[i]!;
      const entering = item;
      try {
        at(i);
        if (step.when !== undefined && !truthy(await evaluate(step.when, item))) {
          unmet.push(i);
          continue;
        }
        if (step.type === "transform") {
          item = await evaluate(step.expression, item);
          lastTransform = i;
          continue;
        }
        const json = text(item);
        if (json === undefined) return restart(lastTransform, tooLarge("the item"));
        if (step.type === "http") {
          if (step.body === undefined) return { k: "call", step: i, json };
          const body = serialise((await evaluate(step.body, item)) ?? null);
          if (body.length > limits.maxResultChars) return fail(i, entering, tooLarge("the request body"));
          return { k: "call", step: i, json, body };
        }
        if (step.type === "llm") {
          let prompt = "";
          for (const part of step.prompt) {
            if (typeof part === "string") prompt += part;
            else {
              const v = await evaluate(part.expr, item);
              prompt += v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);
            }
            if (prompt.length > limits.maxResultChars) return fail(i, entering, tooLarge("the prompt"));
          }
          return { k: "call", step: i, json, prompt };
        }
        if (step.type === "wait") return { k: "call", step: i, json };
        return { k: "stop", step: i, json };
      } catch (e) {
        return fail(i, entering, failure(e));
      }
    }
    const json = text(item);
    return json === undefined ? restart(lastTransform, tooLarge("the item")) : { k: "done", json };
  }

  /**
   * Runs the request's items in order and returns the results of a prefix of them (at least one):
   * a request stops taking items once it has run `budgetMs` or produced `budgetChars`. In careful
   * mode every result is reported at once instead, and the returned list is empty.
   */
  async function run(request: EvalRequest, report?: Report): Promise<ItemResult[]> {
    const { key, json } = request.inputs;
    inputs = json !== undefined ? JSON.parse(json) : kept.get(key);
    if (json === undefined && !kept.has(key)) throw new Error(`no inputs kept under ${key}`);
    kept.delete(key);
    kept.set(key, inputs);
    if (kept.size > limits.inputsKept) kept.delete(kept.keys().next().value!);
    const started = Date.now();
    let chars = 0;
    const results: ItemResult[] = [];
    if (watch) Atomics.store(watch, 1, 1);
    try {
      for (let n = 0; n < request.items.length; n++) {
        if (n > 0 && (Date.now() - started >= limits.budgetMs || chars >= limits.budgetChars)) break;
        const result = await runItem(request.steps, request.items[n]!, n, report);
        chars += result.json.length + (result.k === "call" ? (result.body ?? result.prompt ?? "").length : 0);
        if (report) report({ result });
        else results.push(result);
      }
    } finally {
      if (watch) Atomics.store(watch, 1, 0);
    }
    return results;
  }

  return { run };
}
