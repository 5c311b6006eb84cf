// Evaluating alert rules (docs/api.md, Alerts), every minute by the worker (lib/worker/periodic.ts),
// one process at a time (an advisory lock on PostgreSQL). Each rule's value is read from the usage
// rollups (error rate, latency) or from a bounded read of the runs and deliveries of its
// organization; a rule fires once when its value goes above its threshold and resolves once when it
// no longer is (state on the rule row, moved by conditional updates), and after a resolve it stays
// quiet for `quiet_minutes`. Each fire and resolve is a history row, delivered as a signed
// `alert.fired` / `alert.resolved` event through the completion callbacks' outbox (same signing and
// retries) when the rule has a URL, and by email when it has an address and SMTP_URL is set.
import { now as clockNow } from "../clock";
import { enqueueCallback, nudgeDeliverer } from "../callbacks/service";
import { database, prisma } from "../db";
import { tryAdvisoryLock } from "../db/advisory-lock";
import type { AlertRule } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { newId } from "../ids";
import { effectiveLimit } from "../keys/rate-limit";
import { log } from "../log";
import { sendMail } from "../mail";
import { processSlot } from "../process-state";
import { alertPayload, alertTargets } from "./service";
import { latencyQuantile, LATENCY_BUCKETS } from "../usage/histogram";
import { hourOf } from "../usage/recorder";

const LOCK = "agent-webhook-service:alert-evaluation";
const evaluating = processSlot<boolean>("alertsEvaluating");

/** A rule's current value; null when there is too little volume to judge (counts as not breached). */
export async function measureRule(rule: AlertRule, now: Date): Promise<number | null> {
  const db = await prisma();
  const since = new Date(now.getTime() - rule.windowMinutes * 60_000);
  const agent = rule.agentId ? P.sql`AND agent_id = ${rule.agentId}` : P.empty;
  switch (rule.kind) {
    case "error_rate":
    case "latency_p95": {
      // Whole hours of the rollups: the window starts at its first hour.
      const rows = await db.$queryRaw<Array<{ ok: number; failed: number; buckets: number[] | null }>>(P.sql`
        SELECT COALESCE(sum(replies_completed), 0)::float8 AS ok, COALESCE(sum(replies_failed), 0)::float8 AS failed,
          (SELECT array_agg(n ORDER BY i) FROM (
             SELECT u.i, sum(u.n)::int AS n FROM usage_hourly h2, unnest(h2.latency_buckets) WITH ORDINALITY AS u(n, i)
             WHERE h2.organization_id = ${rule.organizationId} AND h2.hour >= ${hourOf(since)}::timestamp(3)
               ${rule.agentId ? P.sql`AND h2.agent_id = ${rule.agentId}` : P.empty}
             GROUP BY u.i) b) AS buckets
        FROM usage_hourly WHERE organization_id = ${rule.organizationId} AND hour >= ${hourOf(since)}::timestamp(3) ${agent}`);
      const r = rows[0]!;
      const replies = Number(r.ok) + Number(r.failed);
      if (replies === 0 || replies < rule.minVolume) return null;
      if (rule.kind === "error_rate") return (Number(r.failed) / replies) * 100;
      return latencyQuantile(r.buckets ?? new Array<number>(LATENCY_BUCKETS).fill(0), 0.95);
    }
    case "review_waiting": {
      const rows = await db.$queryRaw<Array<{ oldest: Date | null }>>(P.sql`
        SELECT min(updated_at) AT TIME ZONE 'UTC' AS oldest FROM runs
        WHERE organization_id = ${rule.organizationId} AND status = 'needs_review' ${agent}`);
      const oldest = rows[0]?.oldest;
      return oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 60_000) : 0;
    }
    case "callbacks_failing": {
      const rows = await db.$queryRaw<Array<{ n: number }>>(P.sql`
        SELECT count(*)::int AS n FROM callback_deliveries
        WHERE organization_id = ${rule.organizationId} AND created_at >= ${since.toISOString()}::timestamp(3)
          AND event NOT LIKE 'alert.%' AND (status = 'failed' OR (status = 'pending' AND attempts > 0)) ${agent}`);
      return Number(rows[0]?.n ?? 0);
    }
    case "key_expiring": {
      // Days left before the soonest expiry among the keys that still work (not revoked, not yet
      // expired, not past a roll's grace); null (never breached) when none has an expiry.
      const rows = await db.$queryRaw<Array<{ soonest: Date | null }>>(P.sql`
        SELECT min(expires_at) AS soonest FROM access_keys
        WHERE organization_id = ${rule.organizationId} AND revoked_at IS NULL AND expires_at IS NOT NULL
          AND expires_at > ${now.toISOString()}::timestamp(3)
          AND (revoke_at IS NULL OR revoke_at > ${now.toISOString()}::timestamp(3))`);
      const soonest = rows[0]?.soonest;
      return soonest ? (new Date(soonest).getTime() - now.getTime()) / 86_400_000 : null;
    }
    case "rate_limit": {
      // The busiest key's pace against its own limit: its triggers in the window's whole hours of
      // the rollups, per minute of the time they cover, as % of the key's requests a minute (its
      // own, else RATE_LIMIT_PER_MINUTE; keys without a limit are left out). The per-minute
      // counters themselves are not kept (docs/api.md, Alerts, "rate_limit").
      const from = hourOf(since);
      const minutes = Math.max(1, (now.getTime() - new Date(from).getTime()) / 60_000);
      const rows = await db.$queryRaw<Array<{ n: number; own: number | null }>>(P.sql`
        SELECT sum(u.triggers)::float8 AS n, k.rate_limit_per_minute AS own
        FROM usage_hourly u JOIN access_keys k ON k.id = u.key_id AND k.organization_id = u.organization_id
        WHERE u.organization_id = ${rule.organizationId} AND u.key_id <> '' AND u.hour >= ${from}::timestamp(3)
          ${rule.agentId ? P.sql`AND u.agent_id = ${rule.agentId}` : P.empty}
        GROUP BY k.id, k.rate_limit_per_minute`);
      let busiest: number | null = null;
      for (const r of rows) {
        const limit = effectiveLimit(r.own);
        if (limit <= 0) continue;
        const pct = (Number(r.n) / minutes / limit) * 100;
        if (Number(r.n) >= rule.minVolume && (busiest === null || pct > busiest)) busiest = pct;
      }
      return busiest;
    }
    default:
      return null;
  }
}

/** A key's days left breach when they fall below the threshold; every other kind, when above it. */
export const breaches = (kind: string, value: number | null, threshold: number) =>
  value !== null && (kind === "key_expiring" ? value < threshold : value > threshold);

type Move = "fired" | "resolved" | null;

/** What the rule's state does with this value at `now`. */
export function decide(rule: AlertRule, value: number | null, now: Date): Move {
  const breached = breaches(rule.kind, value, rule.threshold);
  if (!rule.firing && breached) {
    const quietUntil = rule.resolvedAt ? rule.resolvedAt.getTime() + rule.quietMinutes * 60_000 : 0;
    return now.getTime() >= quietUntil ? "fired" : null;
  }
  if (rule.firing && !breached) return "resolved";
  return null;
}

/** Applies a fire or resolve: the rule's state, the history row and its delivery, in one transaction. */
async function apply(rule: AlertRule, move: "fired" | "resolved", value: number, now: Date) {
  const db = await prisma();
  const alertId = newId("alt");
  const deliveredTo = alertTargets(rule);
  const done = await db.$transaction(async (tx) => {
    const moved = await tx.alertRule.updateMany({
      where: { id: rule.id, firing: move === "resolved" },
      data:
        move === "fired"
          ? { firing: true, firedAt: now, lastValue: value }
          : { firing: false, resolvedAt: now, lastValue: value },
    });
    if (moved.count !== 1) return null;
    const deliveryId = rule.url
      ? await enqueueCallback(tx, {
          organizationId: rule.organizationId,
          agentId: rule.agentId ?? "",
          subjectId: alertId,
          event: `alert.${move}`,
          url: rule.url,
          data: alertPayload(rule, alertId, value, now),
        })
      : null;
    await tx.alertEvent.create({
      data: {
        id: alertId,
        organizationId: rule.organizationId,
        ruleId: rule.id,
        ruleName: rule.name,
        event: move,
        value,
        deliveryId,
        deliveredTo,
        createdAt: now,
      },
    });
    return { deliveryId };
  });
  if (!done) return false;
  if (done.deliveryId) nudgeDeliverer();
  if (rule.email) {
    await sendMail({
      to: rule.email,
      subject: `Alert ${move}: ${rule.name}`,
      text: `${rule.name} (${rule.kind}) ${move} at ${now.toISOString()}: value ${value}, threshold ${rule.threshold}.`,
      secrets: [],
    });
  }
  return true;
}

/** One turn over every enabled rule; answers the moves made. */
export async function evaluateAlerts(
  opts: { now?: Date; organizationId?: string } = {},
): Promise<Array<{ ruleId: string; move: "fired" | "resolved"; value: number }>> {
  const now = opts.now ?? clockNow();
  const db = await prisma();
  const rules = await db.alertRule.findMany({
    where: { enabled: true, ...(opts.organizationId ? { organizationId: opts.organizationId } : {}) },
    orderBy: { id: "asc" },
  });
  const moves: Array<{ ruleId: string; move: "fired" | "resolved"; value: number }> = [];
  for (const rule of rules) {
    try {
      const value = await measureRule(rule, now);
      const move = decide(rule, value, now);
      if (move && (await apply(rule, move, value ?? 0, now))) moves.push({ ruleId: rule.id, move, value: value ?? 0 });
      else if (value !== null && value !== rule.lastValue) {
        await db.alertRule.update({ where: { id: rule.id }, data: { lastValue: value } });
      }
    } catch (err) {
      log.warn({ rule_id: rule.id, err: { message: (err as Error).message } }, "alert rule not evaluated");
    }
  }
  return moves;
}

/** The worker's turn: one process evaluates at a time (the others skip the turn). */
export async function evaluateAlertsExclusively(): Promise<unknown> {
  if (evaluating.get()) return null;
  evaluating.set(true);
  try {
    const db = await database();
    if (db.kind !== "postgres") return await evaluateAlerts();
    const lock = await tryAdvisoryLock(db.connectionString!, LOCK);
    if (!lock) return null;
    try {
      return await evaluateAlerts();
    } finally {
      await lock.release();
    }
  } finally {
    evaluating.set(false);
  }
}
