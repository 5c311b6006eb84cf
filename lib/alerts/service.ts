// Alert rules (docs/api.md, Alerts): per organization, what is watched and where an alert goes. The
// URL is attacker input: checked as a completion callback's (format and scheme here; the deliverer's
// guarded fetch refuses private, link-local and metadata addresses, lib/net).
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { checkCallbackUrl } from "../callbacks/events";
import { enqueueCallback, nudgeDeliverer } from "../callbacks/service";
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import type { AlertEvent, AlertRule } from "../generated/prisma/client";
import { newId } from "../ids";
import { afterCursor, pageOf } from "../pagination";
import {
  MAX_ALERT_RULES,
  type AlertEventList,
  type AlertEventRecord,
  type AlertPayload,
  type AlertRuleBody,
  type AlertRuleList,
  type AlertRulePatch,
  type AlertRuleRecord,
  type AlertTestSent,
  type DeletedAlertRule,
} from "./schemas";

export const alertRuleRecord = (r: AlertRule): AlertRuleRecord => ({
  rule_id: r.id,
  name: r.name,
  kind: r.kind as AlertRuleRecord["kind"],
  agent_id: r.agentId,
  threshold: r.threshold,
  window_minutes: r.windowMinutes,
  min_volume: r.minVolume,
  quiet_minutes: r.quietMinutes,
  url: r.url,
  email: r.email,
  enabled: r.enabled,
  firing: r.firing,
  fired_at: r.firedAt?.toISOString() ?? null,
  resolved_at: r.resolvedAt?.toISOString() ?? null,
  last_value: r.lastValue,
  created_at: r.createdAt.toISOString(),
});

/** The rule's agent must be one of the organization's: another's answers as a missing one. */
async function checkAgent(organizationId: string, agentId: string | null | undefined) {
  if (!agentId) return;
  const db = await prisma();
  const agent = await db.agent.findFirst({ where: { id: agentId, organizationId }, select: { id: true } });
  if (!agent) throw new ApiError("agent_not_found", "Agent not found.");
}

const notFound = () => new ApiError("alert_rule_not_found", "Alert rule not found.");

async function loadRule(organizationId: string, ruleId: string): Promise<AlertRule> {
  const db = await prisma();
  const rule = await db.alertRule.findFirst({ where: { id: ruleId, organizationId } });
  if (!rule) throw notFound();
  return rule;
}

/**
 * Creates a rule. Its URL is refused with 400 invalid_callback_url as a callback_url would be; its
 * agent must be the organization's (404 agent_not_found); at most MAX_ALERT_RULES per organization.
 */
export async function createAlertRule(opts: {
  organizationId: string;
  input: AlertRuleBody;
  actor: Actor;
}): Promise<AlertRuleRecord> {
  const { input, organizationId } = opts;
  const url = input.url ? checkCallbackUrl(input.url, "url") : null;
  await checkAgent(organizationId, input.agent_id);
  const db = await prisma();
  const rule = await db.$transaction(async (tx) => {
    if ((await tx.alertRule.count({ where: { organizationId } })) >= MAX_ALERT_RULES) {
      throw new ApiError(
        "too_many_alert_rules",
        `An organization holds at most ${MAX_ALERT_RULES} alert rules; delete one first.`,
        { limit: MAX_ALERT_RULES },
      );
    }
    const row = await tx.alertRule.create({
      data: {
        id: newId("alr"),
        organizationId,
        name: input.name,
        kind: input.kind,
        agentId: input.agent_id ?? null,
        threshold: input.threshold,
        windowMinutes: input.window_minutes,
        minVolume: input.min_volume,
        quietMinutes: input.quiet_minutes,
        url,
        email: input.email ?? null,
        enabled: input.enabled,
      },
    });
    await audit({
      tx,
      organizationId,
      actor: opts.actor,
      action: "alert_rule.created",
      targetType: "alert_rule",
      targetId: row.id,
      data: { name: row.name, kind: row.kind },
    });
    return row;
  });
  return alertRuleRecord(rule);
}

/** The organization's rules, oldest first, a page at a time. */
export async function listAlertRules(opts: {
  organizationId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof AlertRuleList>> {
  const db = await prisma();
  const rows = await db.alertRule.findMany({
    where: { organizationId: opts.organizationId, ...afterCursor("createdAt", opts.cursor, "asc") },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (r) => r.createdAt);
  return { alert_rules: page.rows.map(alertRuleRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}

export async function getAlertRule(opts: { organizationId: string; ruleId: string }): Promise<AlertRuleRecord> {
  return alertRuleRecord(await loadRule(opts.organizationId, opts.ruleId));
}

/**
 * Changes the fields given. Disabling a firing rule, or changing what it watches (kind, agent),
 * ends its alert without a resolve event: the new rule starts from "ok" (docs/api.md, Alerts).
 */
export async function updateAlertRule(opts: {
  organizationId: string;
  ruleId: string;
  input: AlertRulePatch;
  actor: Actor;
}): Promise<AlertRuleRecord> {
  const { input, organizationId } = opts;
  const before = await loadRule(organizationId, opts.ruleId);
  // Absent: unchanged; null or "": none.
  const url = input.url === undefined ? undefined : input.url ? checkCallbackUrl(input.url, "url") : null;
  await checkAgent(organizationId, input.agent_id);
  const kind = input.kind ?? before.kind;
  const threshold = input.threshold ?? before.threshold;
  if (kind === "error_rate" && threshold > 100) {
    throw new ApiError("invalid_request", "Invalid request: threshold must be at most 100 (%) for error_rate.", {
      fields: [{ field: "threshold", message: "must be at most 100 (%) for error_rate" }],
    });
  }
  const reset =
    input.enabled === false ||
    (input.kind !== undefined && input.kind !== before.kind) ||
    (input.agent_id !== undefined && input.agent_id !== before.agentId);
  const db = await prisma();
  const rule = await db.$transaction(async (tx) => {
    const moved = await tx.alertRule.updateMany({
      where: { id: before.id, organizationId },
      data: {
        name: input.name,
        kind: input.kind,
        agentId: input.agent_id,
        threshold: input.threshold,
        windowMinutes: input.window_minutes,
        minVolume: input.min_volume,
        quietMinutes: input.quiet_minutes,
        url,
        email: input.email,
        enabled: input.enabled,
        ...(reset ? { firing: false, lastValue: null } : {}),
        updatedAt: new Date(),
      },
    });
    if (moved.count !== 1) throw notFound();
    await audit({
      tx,
      organizationId,
      actor: opts.actor,
      action: "alert_rule.updated",
      targetType: "alert_rule",
      targetId: before.id,
      data: { fields: Object.keys(input).sort() },
    });
    return tx.alertRule.findUniqueOrThrow({ where: { id: before.id } });
  });
  return alertRuleRecord(rule);
}

/** Deletes a rule; its history stays (each event keeps the rule's name). */
export async function deleteAlertRule(opts: {
  organizationId: string;
  ruleId: string;
  actor: Actor;
}): Promise<z.output<typeof DeletedAlertRule>> {
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const gone = await tx.alertRule.deleteMany({ where: { id: opts.ruleId, organizationId: opts.organizationId } });
    if (gone.count !== 1) throw notFound();
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "alert_rule.deleted",
      targetType: "alert_rule",
      targetId: opts.ruleId,
    });
  });
  return { rule_id: opts.ruleId, deleted: true };
}

/**
 * "Send test": a signed `alert.test` event to the rule's URL through the callbacks' outbox (same
 * signing and retries), so an admin can check the receiver. A rule without a URL: 400 naming `url`.
 */
export async function sendTestAlert(opts: {
  organizationId: string;
  ruleId: string;
}): Promise<z.output<typeof AlertTestSent>> {
  const rule = await loadRule(opts.organizationId, opts.ruleId);
  if (!rule.url) {
    throw new ApiError("invalid_request", "Invalid request: the rule has no url to send a test to.", {
      fields: [{ field: "url", message: "is required to send a test" }],
    });
  }
  const db = await prisma();
  const alertId = newId("alt");
  const deliveryId = await db.$transaction((tx) =>
    enqueueCallback(tx, {
      organizationId: rule.organizationId,
      agentId: rule.agentId ?? "",
      subjectId: alertId,
      event: "alert.test",
      url: rule.url!,
      data: alertPayload(rule, alertId, null, new Date()),
    }),
  );
  nudgeDeliverer();
  return { rule_id: rule.id, delivery_id: deliveryId, url: rule.url };
}

/**
 * Where a fire or resolve is sent, as its history row records it: the rule's URL (the signed event
 * of the callbacks' outbox) and its `mailto:` address only when SMTP_URL is set. Without SMTP no
 * email leaves the server, and the history must not say it was delivered (docs/console.md, Alerts).
 */
export function alertTargets(rule: Pick<AlertRule, "url" | "email">): string[] {
  const mailed = rule.email && env().SMTP_URL ? `mailto:${rule.email}` : null;
  return [rule.url, mailed].filter((x): x is string => !!x);
}

/** `data` of the signed alert events (AlertPayload). */
export const alertPayload = (rule: AlertRule, alertId: string, value: number | null, at: Date): AlertPayload => ({
  alert_id: alertId,
  rule_id: rule.id,
  rule_name: rule.name,
  kind: rule.kind as AlertPayload["kind"],
  agent_id: rule.agentId,
  value,
  threshold: rule.threshold,
  window_minutes: rule.windowMinutes,
  at: at.toISOString(),
});

export const alertEventRecord = (e: AlertEvent): AlertEventRecord => ({
  alert_id: e.id,
  rule_id: e.ruleId,
  rule_name: e.ruleName,
  event: e.event as AlertEventRecord["event"],
  value: e.value,
  delivery_id: e.deliveryId,
  delivered_to: e.deliveredTo,
  rollout: (e.rollout ?? null) as AlertEventRecord["rollout"],
  created_at: e.createdAt.toISOString(),
});

/** The organization's alert history, newest first, optionally of one rule (an unknown id: none). */
export async function listAlertEvents(opts: {
  organizationId: string;
  limit: number;
  cursor?: string;
  rule_id?: string;
}): Promise<z.output<typeof AlertEventList>> {
  const db = await prisma();
  const rows = await db.alertEvent.findMany({
    where: {
      organizationId: opts.organizationId,
      ...(opts.rule_id ? { ruleId: opts.rule_id } : {}),
      ...afterCursor("createdAt", opts.cursor),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (e) => e.createdAt);
  return { alert_events: page.rows.map(alertEventRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}
