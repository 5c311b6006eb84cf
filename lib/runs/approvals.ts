// Approvals: items that wait for a person, because a review step matched or a step failed
// unexpectedly (an exception). approved/modified items go back to pending and continue through the
// remaining steps (modified with modified_data as the item); rejected items end failed. When the
// last one of a needs_review run is resolved, the run resumes by itself.
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma } from "../generated/prisma/client";
import { enqueue, transactionWithJobs } from "../queue";
import { RESOLUTIONS, type Resolution } from "./schemas";
import { loadRun } from "./service";
import { announceRun, type RunNotice } from "./signals";
import { allowedActions, isRefused, transition } from "./state";

/** An approval's id is its item's id under another prefix: one open approval per item at a time. */
const exceptionId = (itemId: string) => `exc_${itemId.replace(/^item_/, "")}`;
const itemIdOf = (exceptionId: string) =>
  /^exc_[0-9A-Za-z]{1,64}$/.test(exceptionId) ? `item_${exceptionId.slice(4)}` : null;

export async function listApprovals(opts: { agent: Agent; runId: string }) {
  const run = await loadRun(opts.agent, opts.runId);
  const db = await prisma();
  const items = await db.runItem.findMany({
    where: { runId: run.id, status: "needs_review" },
    orderBy: { index: "asc" },
    take: 1_000,
  });
  return items.map((i) => ({
    exception_id: exceptionId(i.id),
    step_id: i.stepId,
    item_id: i.id,
    data: i.result ?? i.data,
    error: i.error,
    requires_human_review: true as const,
    // Every waiting item holds the run in needs_review until it is resolved.
    blocking: true,
  }));
}

/** Runs whose items may still be resolved; in the others (cancelled, completed, failed) nothing will run them. */
const RESOLVABLE_IN = ["pending", "running", "paused", "needs_review"];

export async function resolveApproval(opts: {
  agent: Agent;
  runId: string;
  exceptionId: string;
  resolution: string;
  modifiedData?: unknown;
  actor: Actor;
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
    const data: Prisma.RunItemUpdateManyMutationInput = rejected
      ? { status: "failed", resolution, error: "Rejected in review" }
      : {
          status: "pending",
          resolution,
          error: null,
          exception: false,
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
      data: { run_id: run.id, exception_id: opts.exceptionId, resolution },
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
    return { all_resolved: counters.itemsReview === 0, resumed };
  });
  if (moved) announceRun(run.id, moved);
  return { exception_id: opts.exceptionId, resolution, ...outcome };
}
