// Bulk actions (docs/api.md, Bulk actions): one control on many runs, or revoking many Access Keys.
// The dry run counts what the selection matches and which of those the action is allowed on, by the
// one table of run moves (lib/runs/state.ts, usefulFrom); starting stores the action with its
// frozen selection (a filter selects only rows created up to its start) and enqueues its job
// (lib/bulk/job.ts) in the same transaction. Support members may act on runs; keys need an admin.
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { BulkAction, Prisma, Role } from "../generated/prisma/client";
import { newId } from "../ids";
import { afterCursor, pageOf } from "../pagination";
import { enqueue, transactionWithJobs } from "../queue";
import { orgRunsWhere } from "../runs/service";
import { usefulFrom } from "../runs/state";
import { parseWith } from "../validate";
import {
  BULK_RUN_ACTIONS,
  KeyFilter,
  RunFilter,
  type BulkActionName,
  type BulkActionPage,
  type BulkActionRecord,
  type BulkPreview,
  type BulkPreviewBody,
  type BulkRunAction,
  type BulkSelection,
  type StartBulkActionBody,
} from "./schemas";

type Preview = z.output<typeof BulkPreview>;
type ReasonCount = Preview["not_allowed"][number];

export const isRunAction = (action: BulkActionName): action is BulkRunAction =>
  (BULK_RUN_ACTIONS as readonly string[]).includes(action);

/** The states a run action would change a run from, as the single controls (RUN_MOVES, without no-ops). */
export const allowedStatuses = (action: BulkActionName): readonly string[] =>
  isRunAction(action) ? usefulFrom(action) : ["active"];

const invalidSelection = (message: string) =>
  new ApiError("invalid_request", `Invalid selection: ${message}`, { fields: [{ field: "selection", message }] });

/** A checked selection: ids (deduplicated) or a filter parsed with the list's own schema. */
export function checkSelection(action: BulkActionName, selection: BulkSelection): BulkSelection {
  const runs = isRunAction(action);
  if ("filter" in selection) {
    const filter = parseWith(runs ? RunFilter : KeyFilter, selection.filter, "selection.filter");
    return { filter };
  }
  if (runs && !("run_ids" in selection)) throw invalidSelection(`${action} selects runs: run_ids or filter`);
  if (!runs && !("key_ids" in selection)) throw invalidSelection("revoke selects Access Keys: key_ids or filter");
  const ids = [...new Set("run_ids" in selection ? selection.run_ids : selection.key_ids)];
  return runs ? { run_ids: ids } : { key_ids: ids };
}

const selectedIds = (selection: BulkSelection): string[] | null =>
  "run_ids" in selection ? selection.run_ids : "key_ids" in selection ? selection.key_ids : null;

/** The rows of the selection: in the organization, created up to `until` (a started action's start). */
export function runsWhere(organizationId: string, selection: BulkSelection, until?: Date): Prisma.RunWhereInput {
  const ids = selectedIds(selection);
  const base = ids
    ? { organizationId, id: { in: ids } }
    : orgRunsWhere(organizationId, (selection as { filter: RunFilter }).filter);
  return until ? { AND: [base, { createdAt: { lte: until } }] } : base;
}

export function keysWhere(organizationId: string, selection: BulkSelection, until?: Date): Prisma.AccessKeyWhereInput {
  const ids = selectedIds(selection);
  const base = ids ? { organizationId, id: { in: ids } } : { organizationId };
  return until ? { AND: [base, { createdAt: { lte: until } }] } : base;
}

function assertMayAct(action: BulkActionName, role: Role) {
  if (!isRunAction(action) && role !== "admin") {
    throw new ApiError("forbidden", "Bulk actions on Access Keys need the admin role.");
  }
}

/** Counts of a selection by state: what matched, what the action is allowed on, and why not the rest. */
async function countSelection(organizationId: string, action: BulkActionName, selection: BulkSelection) {
  const db = await prisma();
  const byStatus = new Map<string, number>();
  if (isRunAction(action)) {
    const groups = await db.run.groupBy({
      by: ["status"],
      where: runsWhere(organizationId, selection),
      _count: { _all: true },
    });
    for (const g of groups) byStatus.set(g.status, g._count._all);
  } else {
    const where = keysWhere(organizationId, selection);
    const [active, revoked] = await Promise.all([
      db.accessKey.count({ where: { AND: [where, { revokedAt: null }] } }),
      db.accessKey.count({ where: { AND: [where, { revokedAt: { not: null } }] } }),
    ]);
    if (active) byStatus.set("active", active);
    if (revoked) byStatus.set("revoked", revoked);
  }
  const allowedFrom = allowedStatuses(action);
  let matched = 0;
  let allowed = 0;
  const notAllowed: ReasonCount[] = [];
  for (const [status, count] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
    matched += count;
    if (allowedFrom.includes(status)) allowed += count;
    else notAllowed.push({ reason: "status", status, count });
  }
  const ids = selectedIds(selection);
  const notFound = ids ? ids.length - matched : 0;
  if (notFound > 0) notAllowed.unshift({ reason: "not_found", status: null, count: notFound });
  return { matched, allowed, notAllowed, notFound };
}

async function sampleOf(organizationId: string, action: BulkActionName, selection: BulkSelection) {
  const db = await prisma();
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  if (isRunAction(action)) {
    const rows = await db.run.findMany({
      where: { AND: [runsWhere(organizationId, selection), { status: { in: [...allowedStatuses(action)] } }] },
      select: { id: true, status: true, agent: { select: { name: true } } },
      orderBy: order,
      take: 10,
    });
    return rows.map((r) => ({ id: r.id, name: r.agent.name, status: r.status }));
  }
  const rows = await db.accessKey.findMany({
    where: { AND: [keysWhere(organizationId, selection), { revokedAt: null }] },
    select: { id: true, name: true },
    orderBy: order,
    take: 10,
  });
  return rows.map((k) => ({ id: k.id, name: k.name, status: "active" }));
}

const targetType = (action: BulkActionName) => (isRunAction(action) ? "run" : "access_key");

/** The dry run: nothing is changed. */
export async function previewBulkAction(opts: {
  organizationId: string;
  role: Role;
  input: BulkPreviewBody;
}): Promise<Preview> {
  const { action } = opts.input;
  assertMayAct(action, opts.role);
  const selection = checkSelection(action, opts.input.selection);
  const [counts, sample] = await Promise.all([
    countSelection(opts.organizationId, action, selection),
    sampleOf(opts.organizationId, action, selection),
  ]);
  return {
    action,
    target_type: targetType(action),
    matched: counts.matched,
    allowed: counts.allowed,
    not_allowed: counts.notAllowed,
    sample,
  };
}

/** Starts a bulk action: the record and its job in one transaction; the job does the work. */
export async function startBulkAction(opts: {
  organizationId: string;
  role: Role;
  actor: Actor;
  input: StartBulkActionBody;
  baseUrl: string;
}): Promise<BulkActionRecord> {
  const { action } = opts.input;
  assertMayAct(action, opts.role);
  const selection = checkSelection(action, opts.input.selection);
  const counts = await countSelection(opts.organizationId, action, selection);
  if (opts.input.expected_count !== undefined && opts.input.expected_count !== counts.allowed) {
    throw new ApiError(
      "selection_changed",
      `The selection changed since its dry run: ${counts.allowed} targets allow ${action} now, not ${opts.input.expected_count}. Review the dry run again.`,
      { allowed: counts.allowed, expected_count: opts.input.expected_count },
    );
  }
  const id = newId("bulk");
  const row = await transactionWithJobs(async (tx) => {
    const created = await tx.bulkAction.create({
      data: {
        id,
        organizationId: opts.organizationId,
        action,
        selection: selection as Prisma.InputJsonValue,
        matched: counts.matched,
        allowed: counts.allowed,
        notAllowed: counts.notAllowed as unknown as Prisma.InputJsonValue,
        // Ids that name nothing in the organization are accounted for at once: skipped, not found.
        skipped: counts.notFound,
        actorType: opts.actor.type,
        actorId: opts.actor.id ?? null,
        actorLabel: opts.actor.label ?? null,
        startedAt: new Date(),
      },
    });
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "bulk_action.started",
      targetType: "bulk_action",
      targetId: id,
      data: { action, target_type: targetType(action), matched: counts.matched, allowed: counts.allowed },
    });
    await enqueue(
      "bulk_action",
      { bulkActionId: id, organizationId: opts.organizationId, baseUrl: opts.baseUrl },
      { tx, singletonKey: id },
    );
    return created;
  });
  return bulkActionRecord(row, []);
}

/** The skipped counts by reason: ids not found at the start, then what the walk refused. */
async function skippedReasons(row: BulkAction): Promise<ReasonCount[]> {
  const db = await prisma();
  const groups = await db.bulkActionTarget.groupBy({
    by: ["outcome", "reason"],
    where: { bulkActionId: row.id, outcome: { in: ["skipped", "failed"] } },
    _count: { _all: true },
  });
  const notFound = (row.notAllowed as ReasonCount[]).filter((r) => r.reason === "not_found");
  return [
    ...notFound,
    ...groups
      .sort((a, b) => (a.reason ?? "").localeCompare(b.reason ?? ""))
      .map((g) =>
        g.outcome === "failed"
          ? { reason: "error" as const, status: null, count: g._count._all }
          : { reason: "status" as const, status: g.reason, count: g._count._all },
      ),
  ];
}

export function bulkActionRecord(row: BulkAction, reasons: ReasonCount[]): BulkActionRecord {
  const notAllowed = row.notAllowed as ReasonCount[];
  const notFound = notAllowed.find((r) => r.reason === "not_found")?.count ?? 0;
  const action = row.action as BulkActionName;
  return {
    bulk_action_id: row.id,
    action,
    target_type: targetType(action),
    selection: row.selection as BulkSelection,
    status: row.status as BulkActionRecord["status"],
    matched: row.matched,
    allowed: row.allowed,
    not_allowed: notAllowed,
    total: row.matched + notFound,
    processed: row.done + row.skipped + row.failed,
    counts: { done: row.done, skipped: row.skipped, failed: row.failed },
    skipped_reasons: reasons,
    started_by: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    started_at: row.startedAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    error: row.error,
  };
}

const BULK_ID = /^bulk_[0-9A-Za-z]{1,64}$/;

export async function getBulkAction(opts: { organizationId: string; id: string }): Promise<BulkActionRecord> {
  const db = await prisma();
  const row = BULK_ID.test(opts.id)
    ? await db.bulkAction.findFirst({ where: { id: opts.id, organizationId: opts.organizationId } })
    : null;
  if (!row) throw new ApiError("bulk_action_not_found", "Bulk action not found.");
  return bulkActionRecord(row, await skippedReasons(row));
}

/** The organization's bulk actions, newest first, a keyset page at a time. */
export async function listBulkActions(opts: {
  organizationId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof BulkActionPage>> {
  const db = await prisma();
  const rows = await db.bulkAction.findMany({
    where: { AND: [{ organizationId: opts.organizationId }, afterCursor("startedAt", opts.cursor)] },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (r) => r.startedAt);
  return {
    bulk_actions: await Promise.all(page.rows.map(async (r) => bulkActionRecord(r, await skippedReasons(r)))),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
