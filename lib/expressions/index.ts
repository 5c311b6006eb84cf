// The process's expression evaluator: a pool of evaluator processes (./pool.ts) made on first use
// from the settings (EXPRESSION_TIMEOUT_MS, EXPRESSION_MEMORY_MB, EXPRESSION_PROCESSES).
import { env } from "../env";
import { createEvaluatorPool, type Evaluator, type EvaluatorPool } from "./pool";

export type { Evaluator, EvaluatorPool } from "./pool";
export type { BoundCode, EvalItem, EvalRequest, ItemResult, PlanStep } from "./program";

/** Largest JSON text (in characters) of an item, http body or prompt that expressions produce. */
export const MAX_RESULT_CHARS = 8 * 1024 * 1024;

// On globalThis: Next's development server may load this module more than once.
const g = globalThis as unknown as { __awsEvaluator?: EvaluatorPool };

export function expressionEvaluator(): Evaluator {
  g.__awsEvaluator ??= createEvaluatorPool({
    processes: env().EXPRESSION_PROCESSES,
    timeoutMs: env().EXPRESSION_TIMEOUT_MS,
    memoryMb: env().EXPRESSION_MEMORY_MB,
    maxResultChars: MAX_RESULT_CHARS,
  });
  return g.__awsEvaluator;
}

/** Ends the evaluator processes (graceful shutdown); a later use starts new ones. */
export function closeExpressionEvaluator() {
  g.__awsEvaluator?.close();
  g.__awsEvaluator = undefined;
}
