// Approvals: items that wait for a person, because a review step matched or a step failed
// unexpectedly (an exception). approved/modified items go back to pending and continue through the
// remaining steps (modified with modified_data as the item); rejected items end failed. When the
// last one of a needs_review run is resolved, the run resumes by itself.
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma, RunItem } from "../generated/prisma/client";
import { enqueue, transactionWithJobs } from "../queue";
import { RESOLUTIONS, type Resolution } from "./schemas";
import { loadRun } from "./service";
import { announceRun, type RunNotice } from "./signals";
import { allowedActions, isRefused, transition } from "./state";

/** An approval's id is its item's id under another prefix: one open approval per item at a time. */
const exceptionId = (itemId: string) => `exc_${itemId.replace(/^item_/, "")}`;
export const itemIdOf = (exceptionId: string) =>
  /^exc_[0-9A-Za-z]{1,64}$/.test(exceptionId) ? `item_${exceptionId.slice(4)}` : null;

/** A claim lasts this long (docs/console.md, Reviews); past it anyone may decide the item. */
export const CLAIM_MS = 15 * 60 * 1000;

/** The approval of an item (open: needs_review; decided: resolved_at set), as SPEC's objects plus who decided. */
export function approvalRecord(i: RunItem) {
  return {
    exception_id: exceptionId(i.id),
    step_id: i.stepId,
    item_id: i.id,
    data: i.status === "needs_review" ? (i.result ?? i.data) : i.data,
    error: i.status === "needs_review" ? i.error : null,
    requires_human_review: true as const,
    // Every waiting item holds the run in needs_review until it is resolved.
    blocking: i.status === "needs_review",
    resolution: i.status === "needs_review" ? null : ((i.resolution as Resolution | null) ?? null),
    resolved_by: i.status === "needs_review" ? null : i.resolvedBy,
    resolved_at: i.status === "needs_review" ? null : (i.resolvedAt?.toISOString() ?? null),
    reason: i.status === "needs_review" ? null : i.reason,
  };
}

/** The console's view: the claim while it lasts, and an edit's changed fields. */
export function consoleApprovalRecord(i: RunItem, now = new Date()) {
  const live = i.status === "needs_review" && i.claimedUntil !== null && i.claimedUntil > now;
  return {
    ...approvalRecord(i),
    index: i.index,
    claimed_by: live ? i.claimedByLabel : null,
    claimed_until: live ? i.claimedUntil!.toISOString() : null,
    diff: (i.resolutionDiff as { path: string; before: unknown; after: unknown }[] | null) ?? null,
  };
}

export async function listApprovals(opts: { agent: Agent; runId: string; status?: "open" | "resolved" }) {
  const run = await loadRun(opts.agent, opts.runId);
  const db = await prisma();
  const items = await db.runItem.findMany({
    where:
      opts.status === "resolved"
        ? { runId: run.id, resolvedAt: { not: null } }
        : { runId: run.id, status: "needs_review" },
    orderBy: { index: "asc" },
    take: 1_000,
  });
  return items.map(approvalRecord);
}

/** The console's review queue of a run: its open approvals with their claims, and its latest decisions. */
export async function listConsoleApprovals(opts: { agent: Agent; runId: string }) {
  const run = await loadRun(opts.agent, opts.runId);
  const db = await prisma();
  const [open, decided] = await Promise.all([
    db.runItem.findMany({ where: { runId: run.id, status: "needs_review" }, orderBy: { index: "asc" }, take: 1_000 }),
    db.runItem.findMany({
      where: { runId: run.id, resolvedAt: { not: null } },
      orderBy: [{ resolvedAt: "desc" }, { id: "desc" }],
      take: 100,
    }),
  ]);
  const now = new Date();
  return {
    approvals: open.map((i) => consoleApprovalRecord(i, now)),
    decisions: decided.map((i) => consoleApprovalRecord(i, now)),
  };
}

/** Who decided, as the approvals API shows it: a member's email, or the Access Key's id. */
const deciderOf = (actor: Actor) => (actor.type === "access_key" ? (actor.id ?? null) : (actor.label ?? actor.type));

const MAX_DIFF = 50;

/** The changed leaves between an item and its edit (JSON Pointer-like paths), at most MAX_DIFF of them. */
export function jsonDiff(
  before: unknown,
  after: unknown,
  path = "",
  out: { path: string; before: unknown; after: unknown }[] = [],
) {
  if (out.length >= MAX_DIFF) return out;
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
      jsonDiff(before[k], after[k], `${path}/${k}`, out);
    }
    return out;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push({ path: path || "/", before: before ?? null, after: after ?? null });
  }
  return out;
}

/** 409 approval_claimed: another member is deciding this item (docs/console.md, Reviews). */
export const claimedError = (by: string | null) =>
  new ApiError("approval_claimed", `Being reviewed by ${by ?? "another member"}: take it over to decide it.`, {
    claimed_by: by,
  });

/** Runs whose items may still be resolved; in the others (cancelled, completed, failed) nothing will run them. */
const RESOLVABLE_IN = ["pending", "running", "paused", "needs_review"];

export async function resolveApproval(opts: {
  agent: Agent;
  runId: string;
  exceptionId: string;
  resolution: string;
  modifiedData?: unknown;
  reason?: string;
  actor: Actor;
  /** The console: decide only an item nobody else claimed, unless taking it over (docs/console.md, Reviews). */
  claimant?: { userId: string; takeOver: boolean };
  baseUrl: string;
}) {
  if (!(RESOLUTIONS as readonly string[]).includes(opts.resolution)) {
    throw new ApiError("invalid_resolution", `resolution must be one of ${RESOLUTIONS.join(", ")}.`, {
      allowed: RESOLUTIONS,
    });
  }
  const resolution = opts.resolution as Resolution;
  if (resolution === "modified" && opts.modifiedData === undefined) {
    throw new ApiError("invalid_request", "modified_data is required when resolution is modified.", {
      fields: [{ field: "modified_data", message: "required when resolution is modified" }],
    });
  }
  const run = await loadRun(opts.agent, opts.runId);
  const itemId = itemIdOf(opts.exceptionId);
  const notFound = () => new ApiError("approval_not_found", "No open approval with this exception_id in this run.");
  if (!itemId) throw notFound();
  let moved: RunNotice | undefined;
  const outcome = await transactionWithJobs(async (tx) => {
    // Lock the run first: resolutions and the engine's last transition are serialised on it.
    const [locked] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM runs WHERE id = ${run.id} FOR UPDATE`;
    if (!locked || !RESOLVABLE_IN.includes(locked.status)) {
      const current = locked?.status ?? run.status;
      throw new ApiError("invalid_state_transition", `Approvals of a ${current} run cannot be resolved.`, {
        current_status: current,
        allowed_actions: allowedActions(current),
      });
    }
    const rejected = resolution === "rejected";
    const [open] = await tx.$queryRaw<
      { data: unknown; result: unknown; claimed_by: string | null; claimed_by_label: string | null; live: boolean }[]
    >`SELECT data, result, claimed_by, claimed_by_label,
        COALESCE(claimed_until > (clock_timestamp() AT TIME ZONE 'UTC'), false) AS live
      FROM run_items WHERE id = ${itemId} AND run_id = ${run.id} AND status = 'needs_review' FOR UPDATE`;
    if (!open) throw notFound();
    const claimedByOther = open.live && open.claimed_by !== opts.claimant?.userId;
    if (opts.claimant && claimedByOther && !opts.claimant.takeOver) throw claimedError(open.claimed_by_label);
    if (opts.claimant && claimedByOther) {
      await audit({
        tx,
        organizationId: run.organizationId,
        actor: opts.actor,
        action: "run.review_taken_over",
        targetType: "run_item",
        targetId: itemId,
        data: { run_id: run.id, exception_id: opts.exceptionId, from: open.claimed_by_label },
      });
    }
    const diff = resolution === "modified" ? jsonDiff(open.result ?? open.data, opts.modifiedData) : null;
    const decided = {
      resolution,
      resolvedBy: deciderOf(opts.actor),
      resolvedAt: new Date(),
      reason: opts.reason ?? null,
      resolutionDiff: (diff ?? undefined) as Prisma.InputJsonValue | undefined,
      claimedBy: null,
      claimedByLabel: null,
      claimedUntil: null,
    };
    const data: Prisma.RunItemUpdateManyMutationInput = rejected
      ? { status: "failed", error: "Rejected in review", ...decided }
      : {
          status: "pending",
          error: null,
          exception: false,
          ...decided,
          ...(resolution === "modified" ? { result: opts.modifiedData as Prisma.InputJsonValue } : {}),
        };
    const changed = await tx.runItem.updateMany({ where: { id: itemId, runId: run.id, status: "needs_review" }, data });
    if (changed.count !== 1) throw notFound();
    const counters = await tx.run.update({
      where: { id: run.id },
      data: rejected
        ? { itemsReview: { decrement: 1 }, itemsFailed: { increment: 1 }, failed: { increment: 1 } }
        : { itemsReview: { decrement: 1 }, totalProcessed: { decrement: 1 } },
      select: { itemsReview: true, status: true },
    });
    await audit({
      tx,
      organizationId: run.organizationId,
      actor: opts.actor,
      action: "run.approval_resolved",
      targetType: "run_item",
      targetId: itemId,
      data: {
        run_id: run.id,
        exception_id: opts.exceptionId,
        resolution,
        ...(opts.reason ? { reason: opts.reason } : {}),
        ...(diff ? { diff: diff as Prisma.InputJsonValue } : {}),
      },
    });
    let resumed = false;
    if (counters.itemsReview === 0 && counters.status === "needs_review") {
      const t = await transition({
        tx,
        runId: run.id,
        move: "resume",
        actor: opts.actor,
        triggeredBy: "approvals",
        onlyFrom: ["needs_review"],
        to: "running",
        bumpEpoch: true,
      });
      if (!isRefused(t)) {
        moved = { status: t.to, epoch: t.epoch };
        await enqueue(
          "run",
          { runId: run.id, epoch: t.epoch, baseUrl: opts.baseUrl, organizationId: run.organizationId },
          { tx },
        );
        resumed = true;
      }
    }
    return {
      all_resolved: counters.itemsReview === 0,
      resumed,
      resolved_by: decided.resolvedBy,
      resolved_at: decided.resolvedAt.toISOString(),
      reason: decided.reason,
    };
  });
  if (moved) announceRun(run.id, moved);
  return { exception_id: opts.exceptionId, resolution, ...outcome };
}
