// Console overview: what an admin or support person checks first. Nothing here counts history:
// run and session counts come from counters kept by triggers as work happens (prisma/schema.prisma
// RunStatusCount, SessionCountHourly), the lists are short pages of indexes.
import { now as clockNow } from "../clock";
import { prisma } from "../db";
import type { z } from "zod";
import { RUN_STATUSES } from "../runs/state";
import type { Overview } from "./schemas";

const RECENT = 5;

export async function overview(opts: { organizationId: string; now?: Date }): Promise<z.output<typeof Overview>> {
  const organizationId = opts.organizationId;
  const now = opts.now ?? new Date();
  const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const db = await prisma();
  const keyNow = opts.now ?? clockNow();
  const [agents, activeKeys, sessionsToday, byStatus, review, failedRuns, errorMessages, expiring] = await Promise.all([
    db.agent.count({ where: { organizationId } }),
    db.accessKey.count({ where: { organizationId, revokedAt: null } }),
    db.sessionCountHourly.aggregate({
      where: { organizationId, environment: "production", hour: { gte: startOfDay } },
      _sum: { n: true },
    }),
    db.runStatusCount.groupBy({ by: ["status"], where: { organizationId }, _sum: { n: true } }),
    db.run.findMany({
      where: { organizationId, status: "needs_review" },
      include: { agent: { select: { name: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
    }),
    db.run.findMany({
      where: { organizationId, status: "failed" },
      include: { agent: { select: { name: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
    }),
    db.message.findMany({
      where: { organizationId, status: "error" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
    }),
    // Through the (organization_id, expires_at) index: live keys whose expiry is within a week.
    db.accessKey.findMany({
      where: {
        organizationId,
        revokedAt: null,
        expiresAt: { gt: keyNow, lte: new Date(keyNow.getTime() + 7 * 86_400_000) },
      },
      orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
      take: RECENT,
    }),
  ]);
  const agentNames = new Map(
    (
      await db.agent.findMany({
        where: { id: { in: [...new Set(errorMessages.map((m) => m.agentId))] } },
        select: { id: true, name: true },
      })
    ).map((a) => [a.id, a.name]),
  );
  const errors = [
    ...failedRuns.map((r) => ({
      kind: "run" as const,
      id: r.id,
      agent_id: r.agentId,
      agent_name: r.agent.name,
      message: r.error ?? "The run failed.",
      at: (r.completedAt ?? r.updatedAt).toISOString(),
    })),
    ...errorMessages.map((m) => ({
      kind: "message" as const,
      id: m.id,
      session_id: m.sessionId,
      agent_id: m.agentId,
      agent_name: agentNames.get(m.agentId) ?? m.agentId,
      message: (m.error as { message?: string } | null)?.message ?? "The reply could not be produced.",
      at: (m.completedAt ?? m.createdAt).toISOString(),
    })),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, RECENT);
  return {
    counts: {
      agents,
      active_keys: activeKeys,
      sessions_today: sessionsToday._sum.n ?? 0,
      runs: Object.fromEntries(
        RUN_STATUSES.map((s) => [s, byStatus.find((g) => g.status === s)?._sum.n ?? 0]),
      ) as Record<(typeof RUN_STATUSES)[number], number>,
    },
    needs_review: review.map((r) => ({
      run_id: r.id,
      agent_id: r.agentId,
      agent_name: r.agent.name,
      items_needs_review: r.itemsReview,
      updated_at: r.updatedAt.toISOString(),
    })),
    recent_errors: errors,
    expiring_keys: expiring.map((k) => ({
      key_id: k.id,
      name: k.name,
      start: k.start,
      expires_at: k.expiresAt!.toISOString(),
    })),
  };
}
