// The benchmark's baseline only: the evaluator program run on the calling thread, as expressions
// were evaluated before they were isolated. Never used by the service (a runaway expression would
// stop the event loop); it lives here, out of lib/, so that nothing else can reach it.
import jsonata from "jsonata";
import { MAX_RESULT_CHARS, type Evaluator } from "../lib/expressions";
import { programLimits } from "../lib/expressions/pool";
import { expressionProgram } from "../lib/expressions/program";

export function inProcessEvaluator(): Evaluator {
  const program = expressionProgram(jsonata, programLimits({ timeoutMs: 1000, maxResultChars: MAX_RESULT_CHARS }));
  return { evaluate: (request) => program.run(request) };
}
