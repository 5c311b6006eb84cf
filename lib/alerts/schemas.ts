// Alert rules and their history (lib/alerts; docs/api.md, Alerts). Browser-safe.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  ONE_LINE,
  OrgParams,
  queryCursor,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";

/**
 * What a rule watches, and the unit of its threshold:
 * - error_rate: % of an agent's (or every agent's) replies that failed over the window, once the window
 *   holds at least `min_volume` replies;
 * - latency_p95: reply latency p95 (ms) over the window, with the same minimum volume;
 * - review_waiting: minutes the oldest run waiting for review has waited;
 * - callbacks_failing: completion callback deliveries created in the window whose last attempt failed;
 * - key_expiring: days left before the soonest expiry among the keys that still work; fires when
 *   BELOW the threshold;
 * - rate_limit: the busiest key's triggers a minute over the window, as % of its rate limit.
 */
export const ALERT_KINDS = [
  "error_rate",
  "latency_p95",
  "review_waiting",
  "callbacks_failing",
  "key_expiring",
  "rate_limit",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An organization holds at most this many rules. */
export const MAX_ALERT_RULES = 100;

/** The unit of each kind's threshold and value, as the console labels them. */
export const ALERT_UNITS: Record<AlertKind, string> = {
  error_rate: "%",
  latency_p95: "ms",
  review_waiting: "minutes",
  callbacks_failing: "deliveries",
  key_expiring: "days",
  rate_limit: "%",
};

/** The unit of one (1 minute, 1 day, 1 delivery). */
const ALERT_UNITS_ONE: Record<string, string> = { minutes: "minute", days: "day", deliveries: "delivery" };

/** A value with its kind's unit: "37.5 %", "1,200 ms", "1 minute", "12 minutes", "6.2 days". */
export function alertValueText(kind: AlertKind, value: number): string {
  const unit = ALERT_UNITS[kind];
  const n = Number.isInteger(value)
    ? value.toLocaleString("en-US")
    : value.toLocaleString("en-US", { maximumFractionDigits: 1 });
  if (unit === "%") return `${n} %`;
  return `${n} ${n === "1" ? (ALERT_UNITS_ONE[unit] ?? unit) : unit}`;
}

const fields = {
  // One line: the name is the subject of the rule's alert emails (docs/security.md, T-HEADER-3).
  name: z.string().trim().min(1, "is required").max(100).regex(ONE_LINE, "must be one line without control characters"),
  kind: z.enum(ALERT_KINDS),
  agent_id: z.string().min(1).max(100).nullable(),
  threshold: z.number().min(0).max(1_000_000_000),
  window_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  min_volume: z.number().int().min(0).max(1_000_000),
  quiet_minutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  // Checked as a callback_url is (400 invalid_callback_url): an http(s) URL without credentials.
  url: z.string().max(2048).meta({ format: "uri" }).nullable(),
  email: z.email("must be an email address").max(320).nullable(),
  enabled: z.boolean(),
};

/** A percentage over 100 can never be reached: refused rather than kept as a rule that never fires. */
const percentCap = (v: { kind?: AlertKind; threshold?: number }, ctx: z.core.$RefinementCtx) => {
  if (v.kind === "error_rate" && v.threshold !== undefined && v.threshold > 100)
    ctx.addIssue({ code: "custom", path: ["threshold"], message: "must be at most 100 (%) for error_rate" });
};

export const AlertRuleBody = z
  .strictObject({
    ...fields,
    agent_id: fields.agent_id.optional(),
    window_minutes: fields.window_minutes.default(15),
    min_volume: fields.min_volume.default(0),
    quiet_minutes: fields.quiet_minutes.default(0),
    url: fields.url.optional(),
    email: fields.email.optional(),
    enabled: fields.enabled.default(true),
  })
  .superRefine(percentCap);
export type AlertRuleBody = z.infer<typeof AlertRuleBody>;

/** A change: only the fields given change (`null` clears agent_id, url or email). */
export const AlertRulePatch = z
  .strictObject({
    name: fields.name.optional(),
    kind: fields.kind.optional(),
    agent_id: fields.agent_id.optional(),
    threshold: fields.threshold.optional(),
    window_minutes: fields.window_minutes.optional(),
    min_volume: fields.min_volume.optional(),
    quiet_minutes: fields.quiet_minutes.optional(),
    url: fields.url.optional(),
    email: fields.email.optional(),
    enabled: fields.enabled.optional(),
  })
  .superRefine(percentCap);
export type AlertRulePatch = z.infer<typeof AlertRulePatch>;

export const AlertRuleParams = OrgParams.extend({
  rule_id: z.string().meta({ description: "The alert rule (`alr_...`).", example: EXAMPLE_ID.rule }),
});
export type AlertRuleParams = z.infer<typeof AlertRuleParams>;

export const AlertRuleRecord = z.strictObject({
  rule_id: z.string(),
  name: z.string(),
  kind: z.enum(ALERT_KINDS),
  agent_id: z.string().nullable(),
  threshold: z.number(),
  window_minutes: z.number().int(),
  min_volume: z.number().int(),
  quiet_minutes: z.number().int(),
  url: z.string().nullable(),
  email: z.string().nullable(),
  enabled: z.boolean(),
  firing: z.boolean(),
  fired_at: z.iso.datetime().nullable(),
  resolved_at: z.iso.datetime().nullable(),
  last_value: z.number().nullable(),
  created_at: z.iso.datetime(),
});
export type AlertRuleRecord = z.infer<typeof AlertRuleRecord>;

/** A rollout guard's fire: the agent, the canary version it rolled back, and what serves now. */
export const GuardRollback = z.strictObject({
  agent_id: z.string(),
  version: z.number().int(),
  rolled_back_to: z.number().int(),
});

export const AlertEventRecord = z.strictObject({
  alert_id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  event: z.enum(["fired", "resolved"]),
  value: z.number(),
  delivery_id: z.string().nullable(),
  delivered_to: z.array(z.string()),
  rollout: GuardRollback.nullable().meta({
    description: "When the rule fired as a rollout's guard: the canary it rolled back (docs/api.md, Versions).",
  }),
  created_at: z.iso.datetime(),
});
export type AlertEventRecord = z.infer<typeof AlertEventRecord>;

export const AlertRuleList = z.strictObject({
  alert_rules: z.array(AlertRuleRecord),
  ...responsePageFields(),
});
export const AlertEventList = z.strictObject({
  alert_events: z.array(AlertEventRecord),
  ...responsePageFields(),
});
export const DeletedAlertRule = z.strictObject({ rule_id: z.string(), deleted: z.literal(true) });
export const AlertTestSent = z.strictObject({
  rule_id: z.string(),
  delivery_id: responseId("dlv").meta({ description: "The delivery of the `alert.test` event (`dlv_...`)." }),
  url: z.string(),
});

export const AlertRuleListQuery = z.object({ limit: queryLimit(100, 500), cursor: queryCursor });
export const AlertEventListQuery = z.object({
  limit: queryLimit(50, 500),
  cursor: queryCursor,
  rule_id: z.string().min(1).max(100).optional().meta({ description: "Only this rule's events (`alr_...`)." }),
});
export type AlertEventListQuery = z.infer<typeof AlertEventListQuery>;

/** `data` of the signed `alert.fired`, `alert.resolved` and `alert.test` events. */
export const AlertPayload = z.strictObject({
  alert_id: z.string().meta({ description: "The history row (`alt_...`); for `alert.test`, a fresh id." }),
  rule_id: z.string(),
  rule_name: z.string(),
  kind: z.enum(ALERT_KINDS),
  agent_id: z.string().nullable(),
  value: z.number().nullable().meta({ description: "The measured value in the kind's unit; null for a test." }),
  threshold: z.number(),
  window_minutes: z.number().int(),
  at: responseTimestamp(),
  rollout: GuardRollback.optional().meta({
    description: "Present when the rule fired as a rollout's guard: the canary it rolled back (docs/api.md, Versions).",
  }),
});
export type AlertPayload = z.infer<typeof AlertPayload>;
