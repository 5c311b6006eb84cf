// The evaluation dialog's state: its settings as typed (text), and the body of the request they make.
import type { Call } from "@/components/console/use-api";

/** What the dialog sends: the body as the API reads it (defaults may be left out). */
export type EvaluationInput = NonNullable<
  Call<"POST /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations">["body"]
>;

export interface ExpressionCheck {
  name: string;
  expression: string;
}
export interface EvaluateForm {
  candidate: string;
  baseline: string;
  limit: string;
  sample: "latest" | "random";
  turns: "last" | "all";
  noError: boolean;
  maxLatency: string;
  equalsBaseline: boolean;
  expressions: ExpressionCheck[];
  maxCost: string;
  maxTokens: string;
  /** Workflows: send http steps for real (else each answers what its original run recorded). */
  liveCalls: boolean;
  /** The admin confirmed the live calls (asked once the dry run shows how many). */
  liveConfirmed: boolean;
}
export const EMPTY_FORM: EvaluateForm = {
  candidate: "draft",
  baseline: "recorded",
  limit: "50",
  sample: "latest",
  turns: "last",
  noError: true,
  maxLatency: "",
  equalsBaseline: false,
  expressions: [],
  maxCost: "",
  maxTokens: "",
  liveCalls: false,
  liveConfirmed: false,
};

/** A saved view or the list's filters: which sessions or runs the evaluation replays. */
export type SourcePick = { view_id: string } | { filters: Record<string, string> } | Record<string, never>;

export const num = (s: string) => (s.trim() === "" ? undefined : Number(s));
const version = <W extends string>(s: string, word: W): W | number => (s.trim() === word ? word : Number(s));

export function toBody(f: EvaluateForm, kind: "sessions" | "runs", pick: SourcePick): EvaluationInput {
  const checks: EvaluationInput["checks"] = [];
  if (f.noError) checks.push({ kind: "no_error" });
  if (num(f.maxLatency) !== undefined) checks.push({ kind: "max_latency_ms", value: num(f.maxLatency)! });
  if (f.equalsBaseline) checks.push({ kind: "equals_baseline" });
  for (const x of f.expressions) checks.push({ kind: "expression", name: x.name, expression: x.expression });
  return {
    candidate: version(f.candidate, "draft"),
    baseline: version(f.baseline, "recorded"),
    source: {
      kind,
      ...pick,
      limit: Number(f.limit),
      sample: f.sample,
      ...(kind === "sessions" ? { turns: f.turns } : {}),
    },
    checks,
    budget: { max_cost_usd: num(f.maxCost), max_tokens: num(f.maxTokens) },
    ...(kind === "runs" && f.liveCalls ? { live_calls: true } : {}),
  };
}
