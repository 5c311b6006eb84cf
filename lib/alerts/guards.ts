// Rollout guards (docs/api.md, Versions): while a canary rollout is on, each alert rule it names
// (error_rate or latency_p95) is judged on the canary version's own traffic since the rollout began,
// over the rule's window, from version_usage_minutely (lib/usage/versions.ts). When one breaches, the
// rollout is rolled back (lib/agents/versions.ts: conditional on that same rollout, so that of
// several processes one acts), audited by the system, and the rule's receivers are told as for any
// fire: an `alert.fired` event naming the rollout through the callbacks' outbox, in the rollback's
// transaction, and an email. The rule's own firing state (its organization-wide evaluation) is left alone.
import { rollback } from "../agents/versions";
import { systemActor } from "../audit";
import { enqueueCallback, nudgeDeliverer } from "../callbacks/service";
import { now as clockNow } from "../clock";
import { prisma } from "../db";
import type { Agent, AlertRule } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { sendMail } from "../mail";
import { rolloutOf, type Rollout } from "../serving";
import { versionFigures } from "../usage/versions";
import { alertPayload, alertTargets } from "./service";

const GUARD = systemActor("rollout guard");

/** The rule's value on the canary's traffic, or null when there is too little of it to judge. */
async function measureGuard(agent: Agent, rollout: Rollout, rule: AlertRule, now: Date): Promise<number | null> {
  const windowStart = now.getTime() - rule.windowMinutes * 60_000;
  const since = new Date(Math.max(windowStart, Date.parse(rollout.started_at)));
  const [f] = await versionFigures(agent.id, [rollout.version], since);
  if (!f) return null;
  if (rule.kind === "error_rate") {
    const ended = f.replies + f.runs_ended;
    return ended > 0 && ended >= rule.minVolume ? f.error_rate : null;
  }
  if (rule.kind === "latency_p95") return f.replies > 0 && f.replies >= rule.minVolume ? f.latency_p95_ms : null;
  return null;
}

/** One turn over every agent with a guarded rollout; answers the rollbacks made. */
export async function evaluateRolloutGuards(
  opts: { now?: Date } = {},
): Promise<Array<{ agentId: string; ruleId: string; version: number; value: number }>> {
  const now = opts.now ?? clockNow();
  const db = await prisma();
  const agents = await db.$queryRaw<Agent[]>`
    SELECT id, organization_id AS "organizationId", name, rollout FROM agents
    WHERE rollout IS NOT NULL AND jsonb_array_length(COALESCE(rollout->'guard_rule_ids', '[]'::jsonb)) > 0`;
  const done: Array<{ agentId: string; ruleId: string; version: number; value: number }> = [];
  for (const agent of agents) {
    const rollout = rolloutOf(agent);
    if (!rollout) continue;
    try {
      const rules = await db.alertRule.findMany({
        where: { id: { in: rollout.guard_rule_ids }, organizationId: agent.organizationId },
        orderBy: { id: "asc" },
      });
      for (const rule of rules) {
        const value = await measureGuard(agent, rollout, rule, now);
        if (value === null || value <= rule.threshold) continue;
        if (await rollBack(agent, rollout, rule, value, now)) {
          done.push({ agentId: agent.id, ruleId: rule.id, version: rollout.version, value });
        }
        break;
      }
    } catch (err) {
      log.warn({ agent_id: agent.id, err: { message: (err as Error).message } }, "rollout guard not evaluated");
    }
  }
  return done;
}

/** Rolls the canary back and tells the rule's receivers; false when the rollout was over already. */
async function rollBack(agent: Agent, rollout: Rollout, rule: AlertRule, value: number, now: Date) {
  const alertId = newId("alt");
  const deliveredTo = alertTargets(rule);
  let deliveryId: string | null = null;
  const done = await rollback({
    organizationId: agent.organizationId,
    agentId: agent.id,
    actor: GUARD,
    guard: {
      rolloutVersion: rollout.version,
      reason: { rule_id: rule.id, rule_name: rule.name, kind: rule.kind, value, threshold: rule.threshold },
      alsoIn: async (tx, rolledBackTo) => {
        const guarded = { agent_id: agent.id, version: rollout.version, rolled_back_to: rolledBackTo };
        deliveryId = rule.url
          ? await enqueueCallback(tx, {
              organizationId: agent.organizationId,
              agentId: agent.id,
              subjectId: alertId,
              event: "alert.fired",
              url: rule.url,
              data: { ...alertPayload(rule, alertId, value, now), rollout: guarded },
            })
          : null;
        await tx.alertEvent.create({
          data: {
            id: alertId,
            organizationId: agent.organizationId,
            ruleId: rule.id,
            ruleName: rule.name,
            event: "fired",
            value,
            deliveryId,
            deliveredTo,
            rollout: guarded,
            createdAt: now,
          },
        });
      },
    },
  });
  if (!done) return false;
  if (deliveryId) nudgeDeliverer();
  if (rule.email) {
    await sendMail({
      to: rule.email,
      subject: `Rollout rolled back: ${agent.name} version ${rollout.version} (${rule.name})`,
      text:
        `${rule.name} (${rule.kind}) fired on version ${rollout.version} of ${agent.name} at ${now.toISOString()}: ` +
        `value ${value}, threshold ${rule.threshold}. The rollout was rolled back; version ${done.published_version} serves everyone.`,
      secrets: [],
    });
  }
  return true;
}
