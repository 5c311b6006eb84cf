// Words and units of the alert kinds, shared by the Alerts page and its history.
import type { AlertKind } from "@/lib/alerts/schemas";
import { alertValueText } from "@/lib/alerts/schemas";

export const KIND_WORDS: Record<AlertKind, { label: string; short: string; threshold: string; hint: string }> = {
  error_rate: {
    label: "Error rate of replies",
    short: "Error rate",
    threshold: "Alert above",
    hint: "Failed replies as a share of all replies over the window.",
  },
  latency_p95: {
    label: "Reply latency (p95)",
    short: "Latency p95",
    threshold: "Alert above",
    hint: "95th percentile of reply time over the window.",
  },
  review_waiting: {
    label: "Runs waiting for review",
    short: "Review waiting",
    threshold: "Alert when waiting longer than",
    hint: "How long the oldest run waiting for a review has waited.",
  },
  callbacks_failing: {
    label: "Callback deliveries failing",
    short: "Failing callbacks",
    threshold: "Alert above",
    hint: "Completion callbacks created in the window whose attempts failed.",
  },
  key_expiring: {
    label: "An Access Key expiring",
    short: "Key expires in",
    threshold: "Alert when fewer than",
    hint: "Days left before the soonest expiry among the working keys.",
  },
  rate_limit: {
    label: "Near a key's rate limit",
    short: "Rate limit use",
    threshold: "Alert above",
    hint: "The busiest key's triggers a minute over the window, as a share of its rate limit.",
  },
};

/** A value with its kind's unit: "37.5 %", "1,200 ms", "1 minute", "12 minutes", "6.2 days". */
export const alertValue = alertValueText;
