// The shared review inbox (docs/console.md, Reviews): every open approval of the organization,
// oldest first; claims (a member deciding an item holds it for 15 minutes; another member decides
// it only by taking it over, audited); decisions and bulk decisions through resolveApproval, the
// one service that resolves approvals. A claim is void once claimed_until is past, compared with
// the database's clock, so no sweeper clears them. Access Key decisions ignore claims.
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError, isApiError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { afterCursor, pageOf } from "../pagination";
import { CLAIM_MS, claimedError, consoleApprovalRecord, itemIdOf, resolveApproval } from "../runs/approvals";
import type { Resolution } from "../runs/schemas";
import { loadOrgRun } from "../runs/service";
import type { BulkDecideResult, ReviewItem, ReviewPage } from "./schemas";

const notFound = () => new ApiError("approval_not_found", "No open review item with this id in this organization.");

type Row = Prisma.RunItemGetPayload<{
  include: { run: { select: { id: true; status: true; agentId: true; agent: { select: { name: true } } } } };
}>;
const withRun = { run: { select: { id: true, status: true, agentId: true, agent: { select: { name: true } } } } };

function reviewItem(r: Row, now: Date): ReviewItem {
  return {
    ...consoleApprovalRecord(r, now),
    run_id: r.run.id,
    run_status: r.run.status,
    agent_id: r.run.agentId,
    agent_name: r.run.agent.name,
    waiting_since: r.createdAt.toISOString(),
  };
}

/**
 * The run states in which an item's review is still awaited; items of a run that ended (cancelled,
 * completed, failed) leave the inbox, and claiming one is refused.
 */
const WAITING_RUN_STATUSES = ["pending", "running", "paused", "needs_review"];

export async function listReviews(opts: {
  organizationId: string;
  agentId?: string;
  from?: string;
  to?: string;
  claimed?: "claimed" | "unclaimed";
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof ReviewPage>> {
  const db = await prisma();
  const now = new Date();
  const rows = await db.runItem.findMany({
    where: {
      AND: [
        {
          status: "needs_review",
          run: {
            organizationId: opts.organizationId,
            status: { in: WAITING_RUN_STATUSES },
            ...(opts.agentId ? { agentId: opts.agentId } : {}),
          },
        },
        opts.from ? { createdAt: { gte: new Date(opts.from) } } : {},
        opts.to ? { createdAt: { lt: new Date(opts.to) } } : {},
        opts.claimed === "claimed"
          ? { claimedUntil: { gt: now } }
          : opts.claimed === "unclaimed"
            ? { OR: [{ claimedUntil: null }, { claimedUntil: { lte: now } }] }
            : {},
        afterCursor("createdAt", opts.cursor, "asc"),
      ],
    },
    include: withRun,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (r) => r.createdAt);
  return {
    items: page.rows.map((r) => reviewItem(r, now)),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

async function loadItem(organizationId: string, exceptionId: string) {
  const itemId = itemIdOf(exceptionId);
  if (!itemId) throw notFound();
  const db = await prisma();
  const row = await db.runItem.findFirst({ where: { id: itemId, run: { organizationId } }, include: withRun });
  if (!row) throw notFound();
  return row;
}

/** Opening an item for decision: hold it for CLAIM_MS, 15 minutes (renewed by the holder; taken over only explicitly). */
export async function claimReview(opts: {
  organizationId: string;
  exceptionId: string;
  user: { userId: string; label: string };
  takeOver: boolean;
  actor: Actor;
}): Promise<ReviewItem> {
  const itemId = itemIdOf(opts.exceptionId);
  if (!itemId) throw notFound();
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      {
        run_id: string;
        run_status: string;
        claimed_by: string | null;
        claimed_by_label: string | null;
        live: boolean;
      }[]
    >`SELECT ri.run_id, r.status AS run_status, ri.claimed_by, ri.claimed_by_label,
        COALESCE(ri.claimed_until > (clock_timestamp() AT TIME ZONE 'UTC'), false) AS live
      FROM run_items ri JOIN runs r ON r.id = ri.run_id
      WHERE ri.id = ${itemId} AND r.organization_id = ${opts.organizationId} AND ri.status = 'needs_review'
      FOR UPDATE OF ri`;
    if (!row) throw notFound();
    if (!WAITING_RUN_STATUSES.includes(row.run_status)) {
      throw new ApiError(
        "invalid_state_transition",
        `The run of this item is ${row.run_status}: nothing waits for its review any more.`,
        { current_status: row.run_status, run_id: row.run_id },
      );
    }
    const other = row.live && row.claimed_by !== opts.user.userId;
    if (other && !opts.takeOver) throw claimedError(row.claimed_by_label);
    await tx.$executeRaw`UPDATE run_items SET claimed_by = ${opts.user.userId}, claimed_by_label = ${opts.user.label},
        claimed_until = (clock_timestamp() AT TIME ZONE 'UTC') + make_interval(secs => ${CLAIM_MS / 1000}),
        updated_at = (clock_timestamp() AT TIME ZONE 'UTC')
      WHERE id = ${itemId}`;
    if (other) {
      await audit({
        tx,
        organizationId: opts.organizationId,
        actor: opts.actor,
        action: "run.review_taken_over",
        targetType: "run_item",
        targetId: itemId,
        data: { run_id: row.run_id, exception_id: opts.exceptionId, from: row.claimed_by_label },
      });
    }
  });
  return reviewItem(await loadItem(opts.organizationId, opts.exceptionId), new Date());
}

/** The console asks for a reason with every reject (docs/console.md, Reviews); the public API does not. */
export function requireReason(resolution: string, reason: string | undefined) {
  if (resolution === "rejected" && !reason) {
    throw new ApiError("invalid_request", "reason is required to reject.", {
      fields: [{ field: "reason", message: "is required to reject (1 to 1000 characters)" }],
    });
  }
}

/** A console decision on one inbox item: the claim checked, the reason required on reject. */
export async function decideReview(opts: {
  organizationId: string;
  exceptionId: string;
  resolution: Resolution;
  modifiedData?: unknown;
  reason?: string;
  takeOver: boolean;
  userId: string;
  actor: Actor;
  baseUrl: string;
}) {
  requireReason(opts.resolution, opts.reason);
  const item = await loadItem(opts.organizationId, opts.exceptionId);
  const run = await loadOrgRun(opts.organizationId, item.runId);
  return resolveApproval({
    agent: run.agent,
    runId: run.id,
    exceptionId: opts.exceptionId,
    resolution: opts.resolution,
    modifiedData: opts.modifiedData,
    reason: opts.reason,
    actor: opts.actor,
    claimant: { userId: opts.userId, takeOver: opts.takeOver },
    baseUrl: opts.baseUrl,
  });
}

/** Many items, one reason: each decided through decideReview; one item's refusal does not stop the others. */
export async function bulkDecide(opts: {
  organizationId: string;
  exceptionIds: string[];
  resolution: "approved" | "rejected";
  reason?: string;
  takeOver: boolean;
  userId: string;
  actor: Actor;
  baseUrl: string;
}): Promise<z.output<typeof BulkDecideResult>> {
  requireReason(opts.resolution, opts.reason);
  const results: z.output<typeof BulkDecideResult>["results"] = [];
  for (const exceptionId of [...new Set(opts.exceptionIds)]) {
    try {
      await decideReview({ ...opts, exceptionId });
      results.push({ exception_id: exceptionId, outcome: "decided", code: null, message: null });
    } catch (e) {
      if (!isApiError(e)) throw e;
      results.push({
        exception_id: exceptionId,
        outcome: e.code === "approval_claimed" ? "skipped" : "failed",
        code: e.code,
        message: e.message,
      });
    }
  }
  const count = (o: string) => results.filter((r) => r.outcome === o).length;
  return { results, decided: count("decided"), skipped: count("skipped"), failed: count("failed") };
}
