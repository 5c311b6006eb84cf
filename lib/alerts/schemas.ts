// Alert rules and their history (lib/alerts; docs/api.md, Alerts). Browser-safe.
import { z } from "zod";

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

export const AlertRuleBody = z.strictObject({
  name: z.string().trim().min(1, "is required").max(100),
  kind: z.enum(ALERT_KINDS),
  agent_id: z.string().min(1).max(100).nullable().optional(),
  threshold: z.number().min(0).max(1_000_000_000),
  window_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  min_volume: z.number().int().min(0).max(1_000_000).default(0),
  quiet_minutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(0),
  url: z.string().max(2048).nullable().optional(),
  email: z.email("must be an email address").max(320).nullable().optional(),
  enabled: z.boolean().default(true),
});
export type AlertRuleBody = z.infer<typeof AlertRuleBody>;

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

export const AlertEventRecord = z.strictObject({
  alert_id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  event: z.enum(["fired", "resolved"]),
  value: z.number(),
  delivery_id: z.string().nullable(),
  delivered_to: z.array(z.string()),
  created_at: z.iso.datetime(),
});
export type AlertEventRecord = z.infer<typeof AlertEventRecord>;
