// The process's expression evaluator: a pool of evaluator processes (./pool.ts) made on first use
// from the settings (EXPRESSION_TIMEOUT_MS, EXPRESSION_MEMORY_MB, EXPRESSION_PROCESSES).
import { env } from "../env";
import { createEvaluatorPool, type Evaluator, type EvaluatorPool } from "./pool";
import { processSlot } from "../process-state";

export type { Evaluator, EvaluatorPool } from "./pool";
export type { BoundCode, EvalItem, EvalRequest, ItemResult, PlanStep } from "./program";

/** Largest JSON text (in characters) of an item, http body or prompt that expressions produce. */
export const MAX_RESULT_CHARS = 8 * 1024 * 1024;

const pool = processSlot<EvaluatorPool>("evaluator");

export function expressionEvaluator(): Evaluator {
  let evaluator = pool.get();
  if (!evaluator) {
    evaluator = createEvaluatorPool({
      processes: env().EXPRESSION_PROCESSES,
      timeoutMs: env().EXPRESSION_TIMEOUT_MS,
      memoryMb: env().EXPRESSION_MEMORY_MB,
      maxResultChars: MAX_RESULT_CHARS,
    });
    pool.set(evaluator);
  }
  return evaluator;
}

/** Ends the evaluator processes (graceful shutdown); a later use starts new ones. */
export function closeExpressionEvaluator() {
  pool.get()?.close();
  pool.set(undefined);
}
