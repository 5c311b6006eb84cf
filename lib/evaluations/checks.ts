// The checks of an evaluation's cases (docs/api.md, Evaluations, Checks): compiled when the
// evaluation is asked for (a check that does not compile is a 400 naming it), run on each case once
// both sides are known. Expressions run in the expression evaluator's processes (lib/expressions:
// bounded time and memory), json_schema checks on their own bounded thread (./schema-check.ts). A
// failing check fails its case, never the evaluation.
import jsonata from "jsonata";
import { isDeepStrictEqual } from "node:util";
import { ApiError } from "../errors";
import type { Evaluator } from "../expressions";
import type { CaseSide, Check, CheckResult } from "./schemas";
import { SchemaCheckError, validateWithSchema } from "./schema-check";

/** The transform an expression check runs: true when the check's expression, over the case, is true. */
export const checkProgram = (expression: string) => `{"ok": ($item.(${expression})) = true}`;

export const checkName = (check: Check, index: number) => check.name ?? `${check.kind}#${index + 1}`;

/** Refuses checks that do not compile: 400 invalid_check naming the check and its error. */
export async function compileChecks(checks: Check[]): Promise<void> {
  for (const [i, check] of checks.entries()) {
    const refuse = (field: string, message: string) =>
      new ApiError("invalid_check", `Invalid body: check "${checkName(check, i)}": ${message}`, {
        fields: [{ field: `checks[${i}].${field}`, message }],
      });
    if (check.kind === "expression") {
      try {
        // Parsing only: the expression is never evaluated on this thread.
        jsonata(checkProgram(check.expression));
        jsonata(check.expression);
      } catch (e) {
        throw refuse("expression", `does not compile: ${(e as Error).message}`);
      }
    }
    if (check.kind === "json_schema") {
      try {
        await validateWithSchema(check.schema, []);
      } catch (e) {
        if (e instanceof SchemaCheckError) throw refuse("schema", `is not a valid JSON Schema: ${e.message}`);
        throw e;
      }
    }
  }
}

/** What a case's checks see: its input, and each side's output. */
export interface CaseView {
  input: unknown;
  candidate: CaseSide;
  baseline: CaseSide | null;
  /** sessions: outputs are reply texts; runs: lists of items. */
  kind: "sessions" | "runs";
}

/** The values a json_schema check matches: a reply parsed as JSON (each turn's), or each item's data. */
function schemaTargets(view: CaseView): { values: unknown[]; unparsable: string | null } {
  const out = view.candidate.output;
  if (view.kind === "runs") {
    const items = Array.isArray(out) ? (out as { data?: unknown }[]) : [];
    return { values: items.map((i) => i.data ?? null), unparsable: null };
  }
  const texts = (Array.isArray(out) ? out : [out]).filter((t): t is string => typeof t === "string");
  const values: unknown[] = [];
  for (const text of texts) {
    try {
      values.push(JSON.parse(text));
    } catch {
      return { values: [], unparsable: "the reply is not JSON" };
    }
  }
  return { values, unparsable: null };
}

/** A run's output has an item that failed by an error of a step (an exception). */
const hasItemError = (output: unknown) =>
  Array.isArray(output) && output.some((i) => (i as { exception?: boolean }).exception === true);

/** Runs each check on the case; never throws for a check's failure. */
export async function runChecks(checks: Check[], view: CaseView, evaluator: Evaluator): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [i, check] of checks.entries()) {
    const result = (passed: boolean, message: string | null = null): CheckResult => ({
      name: checkName(check, i),
      kind: check.kind,
      passed,
      message,
    });
    switch (check.kind) {
      case "no_error": {
        const error =
          view.candidate.error ?? (hasItemError(view.candidate.output) ? "an item failed with an error" : null);
        results.push(result(error === null, error));
        break;
      }
      case "max_latency_ms": {
        const ms = view.candidate.latency_ms;
        results.push(
          ms !== null && ms <= check.value
            ? result(true)
            : result(false, ms === null ? "no latency measured" : `took ${ms} ms, over ${check.value} ms`),
        );
        break;
      }
      case "equals_baseline": {
        if (!view.baseline) results.push(result(false, "no baseline"));
        else {
          const same = isDeepStrictEqual(view.candidate.output, view.baseline.output);
          results.push(same ? result(true) : result(false, "the output differs from the baseline's"));
        }
        break;
      }
      case "json_schema": {
        const { values, unparsable } = schemaTargets(view);
        if (unparsable) {
          results.push(result(false, unparsable));
          break;
        }
        try {
          const errors = await validateWithSchema(check.schema, values);
          const first = errors.findIndex((e) => e !== null);
          results.push(
            first < 0
              ? result(true)
              : result(false, values.length > 1 ? `#${first + 1}: ${errors[first]}` : errors[first]!),
          );
        } catch (e) {
          results.push(result(false, (e as Error).message));
        }
        break;
      }
      case "expression": {
        const view_ = {
          input: view.input ?? null,
          output: view.candidate.output ?? null,
          baseline: view.baseline?.output ?? null,
        };
        const [r] = await evaluator.evaluate({
          steps: [{ type: "transform", expression: checkProgram(check.expression) }],
          inputs: { key: "evaluation-check", json: "{}" },
          items: [{ json: JSON.stringify(view_), from: 0 }],
        });
        if (r?.k === "done") {
          const ok = (JSON.parse(r.json) as { ok?: unknown }).ok === true;
          results.push(ok ? result(true) : result(false, "the expression is not true"));
        } else {
          results.push(
            result(false, r?.k === "error" ? `${r.code ?? "expression error"}: ${r.message}` : "not evaluated"),
          );
        }
        break;
      }
    }
  }
  return results;
}
