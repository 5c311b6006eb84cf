// Evaluations (docs/api.md, Evaluations): the request that replays a slice of an agent's real
// sessions or runs against a candidate version, and the records that answer its progress, its
// figures side by side and each case. Browser-safe: no server imports.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  idString,
  OrgAgentParams,
  queryBoolean,
  queryCursor,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";

/** At most this many cases per evaluation. */
export const MAX_CASES = 500;
/** At most this many checks per evaluation. */
export const MAX_CHECKS = 20;
/** A run case replays at most this many of the run's items (the first, by index). */
export const RUN_CASE_ITEMS = 100;
/** A session replayed turn by turn replays at most this many user turns (the last ones). */
export const SESSION_CASE_TURNS = 50;
/** A json_schema check's schema, as JSON text, is at most this long. */
export const MAX_SCHEMA_CHARS = 32 * 1024;

export const EVALUATION_STATUSES = ["queued", "running", "completed", "cancelled", "stopped", "failed"] as const;
export const EvaluationStatus = z.enum(EVALUATION_STATUSES);
export type EvaluationStatus = z.infer<typeof EvaluationStatus>;
/** Statuses an evaluation leaves no more. */
export const FINISHED_STATUSES: readonly EvaluationStatus[] = ["completed", "cancelled", "stopped", "failed"];

export const CASE_OUTCOMES = ["passed", "failed", "errored", "skipped"] as const;
export const CaseOutcome = z.enum(CASE_OUTCOMES);
export const VERDICTS = ["better", "same", "worse"] as const;
export const Verdict = z.enum(VERDICTS);

const CheckName = z.string().trim().min(1).max(80);

export const Check = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("expression"),
    name: CheckName,
    expression: z.string().min(1).max(2_000).meta({
      description:
        "JSONata over `{input, output, baseline}` (the case's), evaluated in the expression sandbox; it must be `true`.",
    }),
  }),
  z.strictObject({
    kind: z.literal("json_schema"),
    name: CheckName.optional(),
    schema: z
      .record(z.string(), z.unknown())
      .refine(
        (s) => JSON.stringify(s).length <= MAX_SCHEMA_CHARS,
        `must be at most ${MAX_SCHEMA_CHARS} characters of JSON`,
      )
      .meta({
        description:
          "A JSON Schema (draft 2020-12) the output must match: a reply parsed as JSON, or each item of a workflow's output.",
      }),
  }),
  z.strictObject({ kind: z.literal("equals_baseline"), name: CheckName.optional() }),
  z.strictObject({
    kind: z.literal("max_latency_ms"),
    name: CheckName.optional(),
    value: z.number().int().min(1).max(3_600_000),
  }),
  z.strictObject({ kind: z.literal("no_error"), name: CheckName.optional() }),
]);
export type Check = z.infer<typeof Check>;

/** A list's filters as its URL and saved views spell them (strings), checked against the list's own filters. */
const ListFilters = z
  .record(z.string().max(40), z.string().max(256))
  .refine((o) => Object.keys(o).length <= 20, "has more than 20 filters");

export const EvaluationSource = z.strictObject({
  kind: z.enum(["sessions", "runs"]).meta({ description: "`sessions` (conversational agents) or `runs` (workflows)." }),
  view_id: idString("view", "view")
    .optional()
    .meta({ description: "A saved view of the sessions or runs list whose filters select the cases." }),
  filters: ListFilters.optional().meta({
    description:
      "The sessions or runs list's filters, as the console's URL spells them (`status`, `user_id`, `from`, `to`, ...).",
  }),
  limit: z.number().int().min(1).max(MAX_CASES).default(50),
  sample: z.enum(["latest", "random"]).default("latest"),
  turns: z
    .enum(["last", "all"])
    .default("last")
    .meta({
      description:
        "Sessions: `last` replays each session's last user turn with its recorded history; `all` replays every user turn " +
        "in order, with the history the replaying version itself produced.",
    }),
});
export type EvaluationSource = z.output<typeof EvaluationSource>;

export const Budget = z.strictObject({
  max_cost_usd: z.number().positive().max(1_000_000).optional(),
  max_tokens: z.number().int().positive().max(1_000_000_000_000).optional(),
});

export const CreateEvaluationBody = z.strictObject({
  candidate: z
    .union([z.literal("draft"), z.number().int().min(1).max(2_147_483_647)])
    .default("draft")
    .meta({ description: "The version to evaluate: `draft` (the agent's draft) or a version number." }),
  baseline: z
    .union([z.literal("recorded"), z.number().int().min(1).max(2_147_483_647)])
    .default("recorded")
    .meta({ description: "`recorded`: what production answered at the time; or a version replayed the same way." }),
  source: EvaluationSource,
  checks: z.array(Check).max(MAX_CHECKS).default([]),
  budget: Budget.default({}),
  live_calls: z.boolean().default(false).meta({
    description: "Send workflow `http` steps for real. By default each step's recorded response is replayed.",
  }),
  dry_run: z.boolean().default(false).meta({ description: "Answer the figures of the evaluation without making it." }),
});
export type CreateEvaluationBody = z.output<typeof CreateEvaluationBody>;

export const EvaluationParams = OrgAgentParams.extend({
  evaluation_id: z
    .string()
    .meta({ description: "An evaluation of this agent (`eval_...`).", example: EXAMPLE_ID.evaluation }),
});
export const EvaluationCaseParams = EvaluationParams.extend({
  case_id: z
    .string()
    .meta({ description: "A case of this evaluation (`evc_...`).", example: EXAMPLE_ID.evaluationCase }),
});

export const EvaluationListQuery = z.object({ limit: queryLimit(20, 100), cursor: queryCursor });
export const EvaluationCasesQuery = z.object({
  limit: queryLimit(50, 200),
  cursor: queryCursor,
  outcome: CaseOutcome.optional().meta({
    description: "Only cases of this outcome: `passed`, `failed`, `errored` or `skipped`.",
  }),
  changed: queryBoolean.optional().meta({
    description: "`true`: only cases whose candidate output differs from the baseline's; `false`: only the others.",
  }),
});

export const VerdictBody = z.strictObject({
  verdict: Verdict.nullable().meta({ description: "`better`, `same` or `worse`; null clears it." }),
  note: z.string().max(2_000).optional(),
});

const Money = z.number().meta({ description: "US dollars, from the runtime's configured prices (0 without prices)." });

export const EvaluationEstimate = z.strictObject({
  cases: z.number().int(),
  model_calls: z.number().int().meta({ description: "Calls to the candidate's (and a replayed baseline's) runtime." }),
  http_calls: z.number().int().meta({ description: "Workflow http steps sent for real (only with live_calls)." }),
  tokens: z
    .number()
    .int()
    .meta({ description: "From the recorded token counts of the replayed replies and llm steps." }),
  cost_usd: Money,
});

const SideStats = z.strictObject({
  cases: z.number().int(),
  error_rate: z.number(),
  latency_ms: z.strictObject({ p50: z.number().nullable(), p95: z.number().nullable() }),
  tokens: z.number().int(),
  cost_usd: Money,
});

export const EvaluationRecord = z.strictObject({
  evaluation_id: responseId("eval"),
  agent_id: responseId("agt"),
  status: EvaluationStatus,
  stop_reason: z.string().nullable(),
  candidate: z.strictObject({ version: z.number().int(), draft: z.boolean() }),
  baseline: z.strictObject({ kind: z.enum(["recorded", "version"]), version: z.number().int().nullable() }),
  source: EvaluationSource,
  checks: z.array(Check),
  budget: z.strictObject({ max_cost_usd: z.number().nullable(), max_tokens: z.number().int().nullable() }),
  live_calls: z.boolean(),
  estimate: EvaluationEstimate,
  progress: z.strictObject({ total: z.number().int(), done: z.number().int() }),
  counts: z.strictObject({
    passed: z.number().int(),
    failed: z.number().int(),
    errored: z.number().int(),
    skipped: z.number().int(),
    changed: z.number().int(),
  }),
  verdicts: z.strictObject({ better: z.number().int(), same: z.number().int(), worse: z.number().int() }),
  sides: z.strictObject({ baseline: SideStats, candidate: SideStats }),
  spent: z.strictObject({ tokens: z.number().int(), cost_usd: Money }),
  error: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: responseTimestamp(),
  started_at: responseTimestamp().nullable(),
  finished_at: responseTimestamp().nullable(),
});
export type EvaluationRecord = z.infer<typeof EvaluationRecord>;

export const EvaluationDryRun = z.strictObject({
  dry_run: z.literal(true),
  candidate: z.strictObject({ version: z.number().int(), draft: z.boolean() }),
  baseline: z.strictObject({ kind: z.enum(["recorded", "version"]), version: z.number().int().nullable() }),
  estimate: EvaluationEstimate,
});
export type EvaluationDryRun = z.infer<typeof EvaluationDryRun>;

export const EvaluationList = z.strictObject({
  evaluations: z.array(EvaluationRecord),
  ...responsePageFields(),
});

/** One side of a case: what it answered, how long it took, what it cost. */
export const CaseSide = z.strictObject({
  output: z.unknown().meta({ description: "A reply's text (an array of them turn by turn) or a run's items." }),
  error: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  tokens: z.number().int(),
  cost_usd: Money,
});
export type CaseSide = z.infer<typeof CaseSide>;

export const CheckResult = z.strictObject({
  name: z.string(),
  kind: z.string(),
  passed: z.boolean(),
  message: z.string().nullable(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const DiffPart = z.strictObject({ op: z.enum(["equal", "insert", "delete"]), text: z.string() });

export const EvaluationCaseRecord = z.strictObject({
  case_id: responseId("evc"),
  position: z.number().int(),
  source: z.strictObject({ type: z.enum(["session", "run"]), id: z.string() }),
  status: z.enum(["pending", "running", "done"]),
  outcome: CaseOutcome.nullable(),
  skip_reason: z.string().nullable(),
  changed: z.boolean().nullable(),
  input: z.unknown(),
  baseline: CaseSide.nullable(),
  candidate: CaseSide.nullable(),
  diff: z.array(DiffPart).nullable().meta({
    description:
      "The baseline's output turned into the candidate's, word by word (lines for JSON); null when not comparable.",
  }),
  checks: z.array(CheckResult),
  verdict: Verdict.nullable(),
  verdict_note: z.string().nullable(),
  verdict_by: z.string().nullable(),
  verdict_at: responseTimestamp().nullable(),
  finished_at: responseTimestamp().nullable(),
});
export type EvaluationCaseRecord = z.infer<typeof EvaluationCaseRecord>;

export const EvaluationCaseList = z.strictObject({
  cases: z.array(EvaluationCaseRecord),
  ...responsePageFields(),
});
