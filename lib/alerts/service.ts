// Alert rules (docs/api.md, Alerts): per organization, what is watched and where an alert goes. The
// URL is attacker input: checked as a completion callback's (format and scheme here; the deliverer's
// guarded fetch refuses private, link-local and metadata addresses, lib/net).
import { checkCallbackUrl } from "../callbacks/events";
import { prisma } from "../db";
import type { AlertRule } from "../generated/prisma/client";
import { newId } from "../ids";
import type { AlertRuleBody, AlertRuleRecord } from "./schemas";

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

/** Creates a rule; its URL is refused with 400 invalid_callback_url as a callback_url would be. */
export async function createAlertRule(opts: {
  organizationId: string;
  input: AlertRuleBody;
}): Promise<AlertRuleRecord> {
  const { input } = opts;
  const url = input.url ? checkCallbackUrl(input.url, "url") : null;
  const db = await prisma();
  const rule = await db.alertRule.create({
    data: {
      id: newId("alr"),
      organizationId: opts.organizationId,
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
  return alertRuleRecord(rule);
}
