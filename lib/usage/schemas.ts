// The usage API's query and answers (docs/api.md, Usage): figures read from the hourly rollups
// (lib/usage). Browser-safe: the console's charts read the same schemas.
import { z } from "zod";
import { inputInstant } from "../validate";

/** The longest range one request may ask for. */
export const USAGE_MAX_DAYS = 90;
export const USAGE_GROUPS = ["hour", "day", "agent", "key"] as const;
export type UsageGroupBy = (typeof USAGE_GROUPS)[number];

const instant = inputInstant("must be an RFC 3339 date-time, such as 2026-11-27T09:00:00Z");
const optionalId = z.string().min(1).max(100).optional();

export const UsageQuery = z
  .object({
    from: instant.optional().meta({ description: "Start of the range (RFC 3339); default: a day before `to`." }),
    to: instant.optional().meta({ description: "End of the range, exclusive (RFC 3339); default: now." }),
    group_by: z.enum(USAGE_GROUPS).default("hour").meta({ description: "`hour` (default), `day`, `agent` or `key`." }),
    agent_id: optionalId.meta({ description: "Only this agent's usage." }),
    key_id: optionalId.meta({ description: "Only this Access Key's usage." }),
  })
  .superRefine((q, ctx) => {
    const to = q.to ? Date.parse(q.to) : Date.now();
    const from = q.from ? Date.parse(q.from) : to - 24 * 3_600_000;
    if (from >= to) ctx.addIssue({ code: "custom", path: ["from"], message: "must be before to" });
    else if (to - from > USAGE_MAX_DAYS * 86_400_000) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `must be at most ${USAGE_MAX_DAYS} days before to` });
    }
  });
export type UsageQuery = z.infer<typeof UsageQuery>;

const count = z.number().int().nonnegative();

/** The figures of a set of hours; the percentiles are the upper bound of a fixed histogram bucket. */
export const UsageFigures = z.strictObject({
  triggers: count,
  replies_completed: count,
  replies_failed: count,
  /** replies_failed / (replies_completed + replies_failed); null without replies. */
  error_rate: z.number().min(0).max(1).nullable(),
  latency_p50_ms: count.nullable(),
  latency_p95_ms: count.nullable(),
  runs_started: count,
  runs_completed: count,
  runs_failed: count,
  runs_cancelled: count,
  runs_needs_review: count,
  prompt_tokens: count,
  completion_tokens: count,
  cost: z.number().nonnegative(),
  uploads: count,
  upload_bytes: count,
  /**
   * Evaluation usage (docs/api.md, Evaluations): cases replayed, and the tokens and cost of their
   * model calls. Counted apart: none of the figures above includes an evaluation's work.
   */
  evaluation_cases: count,
  evaluation_tokens: count,
  evaluation_cost: z.number().nonnegative(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

export const UsageGroup = UsageFigures.extend({
  /** The hour's or day's start (RFC 3339), the agent id, or the key id ('' for work without a key). */
  group: z.string(),
});
export type UsageGroup = z.infer<typeof UsageGroup>;

export const UsageReport = z.strictObject({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  group_by: z.enum(USAGE_GROUPS),
  agent_id: z.string().nullable(),
  key_id: z.string().nullable(),
  totals: UsageFigures,
  groups: z.array(UsageGroup),
});
export type UsageReport = z.infer<typeof UsageReport>;
