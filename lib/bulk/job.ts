// The `bulk_action` queue handler: walks a bulk action's frozen selection by keyset, newest first,
// a batch at a time from the stored cursor, and moves each target through the same service as the
// single controls (lib/runs/service.ts controlRunIn; revokeKey for Access Keys), so the same rules,
// events and callbacks apply. Each target's outcome row (bulk_action_targets, unique per bulk
// action and target) is written in the same transaction as its move and its count: a batch walked
// again after a restart finds the row and moves nothing twice. The cursor is stored after each batch.
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { env } from "../env";
import { Prisma as P, type BulkAction, type Prisma } from "../generated/prisma/client";
import { revokeKey } from "../keys/service";
import { log } from "../log";
import { encodeCursor, afterCursor } from "../pagination";
import { liveJobExists, queueRetryLimit, transactionWithJobs, type JobData, type JobHandler } from "../queue";
import { controlRunIn } from "../runs/service";
import { announceRun } from "../runs/signals";
import { isRefused } from "../runs/state";
import type { BulkActionName, BulkSelection } from "./schemas";
import { isRunAction, keysWhere, runsWhere } from "./service";

export const BULK_BATCH = 100;

type Outcome = { outcome: "done" | "skipped" | "failed"; reason?: string | null };

const actorOf = (row: BulkAction): Actor => ({
  type: row.actorType as Actor["type"],
  id: row.actorId ?? undefined,
  label: row.actorLabel ?? undefined,
});

/** Records a target's outcome and its count, in `tx`; false when the target was processed already. */
async function claimTarget(tx: Prisma.TransactionClient, bulkActionId: string, targetId: string) {
  const inserted = await tx.bulkActionTarget.createMany({
    data: [{ bulkActionId, targetId, outcome: "pending" }],
    skipDuplicates: true,
  });
  return inserted.count === 1;
}

async function settleTarget(tx: Prisma.TransactionClient, bulkActionId: string, targetId: string, o: Outcome) {
  await tx.bulkActionTarget.update({
    where: { bulkActionId_targetId: { bulkActionId, targetId } },
    data: { outcome: o.outcome, reason: o.reason ?? null },
  });
  await tx.bulkAction.update({ where: { id: bulkActionId }, data: { [o.outcome]: { increment: 1 } } });
}

/** A target whose move threw: recorded failed (unless a concurrent walk recorded it meanwhile). */
async function recordFailure(bulkActionId: string, targetId: string, error: unknown) {
  const message = (error as Error).message?.slice(0, 500) ?? "error";
  log.warn({ bulk_action_id: bulkActionId, target_id: targetId, err: { message } }, "bulk action target failed");
  await transactionWithJobs(async (tx) => {
    if (await claimTarget(tx, bulkActionId, targetId)) {
      await settleTarget(tx, bulkActionId, targetId, { outcome: "failed", reason: message });
    }
  });
}

async function moveRunOnce(row: BulkAction, runId: string, baseUrl: string | undefined) {
  const moved = await transactionWithJobs(async (tx) => {
    if (!(await claimTarget(tx, row.id, runId))) return null;
    const t = await controlRunIn(tx, {
      runId,
      organizationId: row.organizationId,
      action: row.action as Parameters<typeof controlRunIn>[1]["action"],
      actor: actorOf(row),
      triggeredBy: `bulk:${row.id}`,
      baseUrl: baseUrl ?? "",
      auditData: { bulk_action_id: row.id },
    });
    if (isRefused(t)) {
      await settleTarget(tx, row.id, runId, { outcome: "skipped", reason: t.refused ?? "not_found" });
      return null;
    }
    await settleTarget(tx, row.id, runId, { outcome: "done" });
    return t;
  });
  if (moved) announceRun(runId, { status: moved.to, epoch: moved.epoch });
}

/**
 * Revoking is idempotent (a revoked key is never revoked or audited again), so the revocation runs
 * before its outcome row: a walk interrupted between the two finds the key revoked and skips it.
 */
async function revokeKeyOnce(row: BulkAction, keyId: string, revokedAt: Date | null) {
  const db = await prisma();
  if (
    await db.bulkActionTarget.findUnique({
      where: { bulkActionId_targetId: { bulkActionId: row.id, targetId: keyId } },
    })
  )
    return;
  if (!revokedAt) {
    await revokeKey({
      organizationId: row.organizationId,
      keyId,
      actor: actorOf(row),
      auditData: { bulk_action_id: row.id },
    });
  }
  await transactionWithJobs(async (tx) => {
    if (await claimTarget(tx, row.id, keyId)) {
      await settleTarget(
        tx,
        row.id,
        keyId,
        revokedAt ? { outcome: "skipped", reason: "revoked" } : { outcome: "done" },
      );
    }
  });
}

/** The next batch of the selection after the cursor, created up to the action's start. */
async function nextBatch(row: BulkAction): Promise<{ id: string; createdAt: Date; revokedAt?: Date | null }[]> {
  const db = await prisma();
  const selection = row.selection as BulkSelection;
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  if (isRunAction(row.action as BulkActionName)) {
    return db.run.findMany({
      where: {
        AND: [
          runsWhere(row.organizationId, selection, row.startedAt),
          afterCursor("createdAt", row.cursor ?? undefined),
        ],
      },
      select: { id: true, createdAt: true },
      orderBy: order,
      take: BULK_BATCH,
    });
  }
  return db.accessKey.findMany({
    where: {
      AND: [keysWhere(row.organizationId, selection, row.startedAt), afterCursor("createdAt", row.cursor ?? undefined)],
    },
    select: { id: true, createdAt: true, revokedAt: true },
    orderBy: order,
    take: BULK_BATCH,
  });
}

/** Walks the bulk action from its stored cursor to the end (idempotent: see the module comment). */
export async function runBulkAction(
  data: Pick<JobData<"bulk_action">, "bulkActionId" | "baseUrl">,
  signal?: AbortSignal,
) {
  const db = await prisma();
  let row = await db.bulkAction.findUnique({ where: { id: data.bulkActionId } });
  if (!row || row.status === "completed" || row.status === "failed") return;
  if (row.status === "pending")
    row = await db.bulkAction.update({ where: { id: row.id }, data: { status: "running" } });
  for (;;) {
    const batch = await nextBatch(row);
    for (const target of batch) {
      signal?.throwIfAborted();
      try {
        if (isRunAction(row.action as BulkActionName)) await moveRunOnce(row, target.id, data.baseUrl);
        else await revokeKeyOnce(row, target.id, target.revokedAt ?? null);
      } catch (e) {
        await recordFailure(row.id, target.id, e);
      }
    }
    const last = batch.at(-1);
    if (last) {
      row = await db.bulkAction.update({
        where: { id: row.id },
        data: { cursor: encodeCursor({ at: last.createdAt, id: last.id }) },
      });
    }
    if (batch.length < BULK_BATCH) break;
  }
  await finishBulkAction(row.id, "completed", null);
}

/** Ends a pending or running bulk action with its audit row, in `tx`; false when it had ended already. */
async function endBulkActionIn(
  tx: Prisma.TransactionClient,
  id: string,
  status: "completed" | "failed",
  error: string | null,
): Promise<boolean> {
  const ended = await tx.bulkAction.updateMany({
    where: { id, status: { in: ["pending", "running"] } },
    data: { status, error, completedAt: new Date() },
  });
  if (ended.count !== 1) return false;
  const row = await tx.bulkAction.findUniqueOrThrow({ where: { id } });
  await audit({
    tx,
    organizationId: row.organizationId,
    actor: actorOf(row),
    action: "bulk_action.completed",
    targetType: "bulk_action",
    targetId: id,
    data: { action: row.action, status, done: row.done, skipped: row.skipped, failed: row.failed },
  });
  return true;
}

async function finishBulkAction(id: string, status: "completed" | "failed", error: string | null) {
  await transactionWithJobs((tx) => endBulkActionIn(tx, id, status, error));
}

export const BULK_STOPPED_ERROR =
  "The bulk action stopped after repeated internal errors; the runs it moved stay moved.";

export const BULK_ORPHANED_ERROR =
  "The bulk action stopped: the process running it ended during its last attempt. The targets it moved stay moved; start it again for the rest.";

const ORPHAN_BATCH = 20;

/**
 * Ends `failed` (BULK_ORPHANED_ERROR) the bulk actions nothing will ever walk again: `pending` or
 * `running`, unchanged for `graceMs` (a heartbeat by default: the walk writes its cursor after each
 * batch), with no job of the `bulk_action` queue that will still run for them, i.e. their job's last
 * attempt died with its process (the same rule as the orphaned run sweep, lib/workflow/job.ts
 * failOrphanedRuns). pg-boss retries a job whose attempts remain itself, so a missing live job means
 * no attempt is left: ending the record is all there is to do. The outcome rows are untouched, so a
 * target already moved is never moved again. Each record is locked (`FOR UPDATE SKIP LOCKED`) and
 * the job check repeated under the lock. Returns the ids of the bulk actions it ended.
 */
export async function failOrphanedBulkActions(opts: { graceMs?: number; now?: Date } = {}): Promise<string[]> {
  const graceMs = opts.graceMs ?? env().QUEUE_HEARTBEAT_SECONDS * 1000;
  const before = new Date((opts.now ?? new Date()).getTime() - graceMs);
  const live = liveJobExists("bulk_action", "bulkActionId", P.sql`b.id`);
  const db = await prisma();
  const ended = await db.$transaction(async (tx) => {
    const candidates = await tx.$queryRaw<{ id: string }[]>(P.sql`
      SELECT b.id FROM bulk_actions b
      WHERE b.status IN ('pending', 'running') AND b.updated_at < ${before}::timestamp(3) AND NOT ${live}
      ORDER BY b.updated_at LIMIT ${ORPHAN_BATCH}
      FOR UPDATE OF b SKIP LOCKED`);
    if (!candidates.length) return [];
    // The candidates' snapshot predates the locks: look again now that they are held.
    const still = await tx.$queryRaw<{ id: string }[]>(P.sql`
      SELECT b.id FROM bulk_actions b WHERE b.id IN (${P.join(candidates.map((c) => c.id))}) AND NOT ${live}`);
    const ids: string[] = [];
    for (const { id } of still) if (await endBulkActionIn(tx, id, "failed", BULK_ORPHANED_ERROR)) ids.push(id);
    return ids;
  });
  for (const id of ended)
    log.warn({ bulk_action_id: id }, "bulk action failed: its job's last attempt died with its process");
  return ended;
}

export const bulkActionJob: JobHandler<"bulk_action"> = async (data, job) => {
  try {
    await runBulkAction(data, job.signal);
  } catch (e) {
    log.warn(
      { bulk_action_id: data.bulkActionId, attempt: job.retryCount, err: { message: (e as Error).message } },
      "bulk action pass failed",
    );
    if (job.retryCount < queueRetryLimit()) throw e; // the queue retries from the stored cursor
    await finishBulkAction(data.bulkActionId, "failed", BULK_STOPPED_ERROR);
  }
};
