// Runs of a workflow agent: list, fetch, and the four run controls (pause, resume, cancel,
// retry). Each control is one locked conditional transition (lib/runs/state.ts); one that is not
// allowed from the current state is 409 invalid_state_transition naming what is allowed.
import type { Actor } from "../audit";
import type { z } from "zod";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma, Run } from "../generated/prisma/client";
import { enqueue, transactionWithJobs } from "../queue";
import { readRun } from "./read";
import { RUN_VIEW_SELECT, runListItem, runRecord } from "./record";
import { announceRun } from "./signals";
import { waitForRunChange } from "./waiters";
import {
  allowedActions,
  usefulActions,
  isRefused,
  RUN_STATUSES,
  transition,
  utcNow,
  type ControlAction,
  type RunStatus,
} from "./state";
import { afterCursor, afterPosition, instantRange, pageOf } from "../pagination";
import { assertVersionFilter } from "../validate";
import type { OrgRunDetail, OrgRunPage, RunItemPage } from "./schemas";
import { expandTimeline, stepsOf } from "./timeline";

export function requireWorkflowAgent(agent: Agent) {
  if (agent.kind !== "workflow") {
    throw new ApiError(
      "runtime_not_applicable",
      "Run routes apply to workflow agents only; this agent is conversational.",
    );
  }
}

const runNotFound = () => new ApiError("run_not_found", "Run not found.");

const RUN_ID = /^run_[0-9A-Za-z]{1,64}$/;

/** The checks before any run lookup: a workflow agent, and an id that can name a run. */
function assertRunRef(agent: Agent, runId: string) {
  requireWorkflowAgent(agent);
  if (!RUN_ID.test(runId)) throw runNotFound();
}

export async function loadRun(agent: Agent, runId: string) {
  assertRunRef(agent, runId);
  const db = await prisma();
  const run = await db.run.findFirst({ where: { id: runId, agentId: agent.id, organizationId: agent.organizationId } });
  if (!run) throw runNotFound();
  return run;
}

/** The agent's runs, newest first: a page and the cursor after it (docs/api.md, Paging). */
export async function listRuns(opts: { agent: Agent; limit: number; status?: string; cursor?: string }) {
  requireWorkflowAgent(opts.agent);
  if (opts.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(opts.status)) {
    throw new ApiError("invalid_status", `status must be one of ${RUN_STATUSES.join(", ")}.`, {
      allowed: RUN_STATUSES,
    });
  }
  const db = await prisma();
  const rows = await db.run.findMany({
    where: {
      AND: [
        { agentId: opts.agent.id, ...(opts.status ? { status: opts.status } : {}) },
        afterCursor("createdAt", opts.cursor),
      ],
    },
    select: { ...RUN_VIEW_SELECT, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (r) => r.createdAt);
  return { runs: page.rows.map(runListItem), next_cursor: page.next_cursor };
}

/** One run. With `waitMs`, answered as soon as its status changes, or when the wait runs out (long polling). */
export async function getRun(opts: { agent: Agent; runId: string; baseUrl: string; waitMs?: number }) {
  assertRunRef(opts.agent, opts.runId);
  const read = () => readRun({ runId: opts.runId, agentId: opts.agent.id, organizationId: opts.agent.organizationId });
  let found = await read();
  if (!found) throw runNotFound();
  if (opts.waitMs) {
    await waitForRunChange(found.run.id, found.run.status, opts.waitMs);
    found = (await read()) ?? found;
  }
  return runRecord(found.run, { ...found, baseUrl: opts.baseUrl });
}

/**
 * The run record with output files and audit trail; `known` is the run row when already read; `tx`
 * reads it inside a transaction (as that transaction sees it).
 */
export async function recordOf(runId: string, baseUrl: string, known?: Run, tx?: Prisma.TransactionClient) {
  const db = tx ?? (await prisma());
  const [run, outputFiles, events] = await Promise.all([
    known ?? db.run.findUniqueOrThrow({ where: { id: runId } }),
    db.outputFile.findMany({ where: { runId }, orderBy: { createdAt: "asc" } }),
    db.auditEvent.findMany({ where: { targetType: "run", targetId: runId }, orderBy: { createdAt: "asc" } }),
  ]);
  return runRecord(run, { outputFiles, events, baseUrl });
}

/** What each control writes besides the status. */
function controlEffects(
  action: ControlAction,
  from: RunStatus,
): {
  to: RunStatus;
  data?: Prisma.RunUpdateManyMutationInput;
  startsEngine: boolean;
} {
  switch (action) {
    case "pause":
      return { to: "paused", startsEngine: false };
    case "cancel":
      return { to: "cancelled", data: { completedAt: utcNow() }, startsEngine: false };
    case "resume":
      // From paused or needs_review a new engine pass continues the run; from running it changes
      // nothing (NO_OP_CONTROLS) and transition() writes nothing.
      return { to: "running", data: { completedAt: null }, startsEngine: from !== "running" };
    case "retry":
      return { to: "pending", data: { completedAt: null, error: null }, startsEngine: true };
  }
}

export async function controlRun(opts: {
  agent: Agent;
  runId: string;
  action: ControlAction;
  actor: Actor;
  triggeredBy?: string;
  baseUrl: string;
}) {
  const run = await loadRun(opts.agent, opts.runId);
  // The answer is the run as this control left it, read under the control's row lock: a concurrent
  // control committed just after (a cancel after a no-op resume) is not this control's answer.
  const out = await transactionWithJobs(async (tx) => {
    const result = await controlRunIn(tx, { ...opts, runId: run.id, organizationId: run.organizationId });
    if (isRefused(result)) return { ok: false as const, refused: result.refused ?? run.status };
    return { ok: true as const, result, record: await recordOf(run.id, opts.baseUrl, undefined, tx) };
  });
  if (!out.ok) {
    throw new ApiError("invalid_state_transition", `Cannot ${opts.action} a run that is ${out.refused}.`, {
      current_status: out.refused,
      allowed_actions: allowedActions(out.refused),
    });
  }
  if (!out.result.unchanged) announceRun(run.id, { status: out.result.to, epoch: out.result.epoch });
  return out.record;
}

/**
 * One control inside `tx` (a transaction with jobs): the locked transition, its effects and the
 * engine's job (the caller announces the move once `tx` commits: announceRun). A refused move
 * writes nothing and is returned as such.
 * The single control routes and the bulk actions (lib/bulk) both move runs through it.
 */
export async function controlRunIn(
  tx: Prisma.TransactionClient,
  opts: {
    runId: string;
    organizationId: string;
    action: ControlAction;
    actor: Actor;
    triggeredBy?: string;
    baseUrl: string;
    auditData?: Record<string, string>;
  },
) {
  let startsEngine = false;
  const t = await transition({
    tx,
    runId: opts.runId,
    move: opts.action,
    actor: opts.actor,
    triggeredBy: opts.triggeredBy,
    auditData: opts.auditData,
    decide: (locked) => {
      const effects = controlEffects(opts.action, locked.status);
      startsEngine = effects.startsEngine;
      return { ...effects, bumpEpoch: effects.startsEngine };
    },
  });
  if (isRefused(t)) return t;
  if (opts.action === "retry") await resetFatalItems(tx, opts.runId);
  if (startsEngine)
    await enqueue(
      "run",
      { runId: opts.runId, epoch: t.epoch, baseUrl: opts.baseUrl, organizationId: opts.organizationId },
      { tx },
    );
  return t;
}

/** Retry: the items whose failure failed the run go back to pending, at the step that failed. */
async function resetFatalItems(tx: Prisma.TransactionClient, runId: string) {
  const reset = await tx.runItem.updateMany({
    where: { runId, status: "failed", fatal: true },
    data: { status: "pending", fatal: false, error: null },
  });
  if (reset.count) {
    await tx.run.update({
      where: { id: runId },
      data: {
        failed: { decrement: reset.count },
        itemsFailed: { decrement: reset.count },
        totalProcessed: { decrement: reset.count },
      },
    });
  }
}

/** Console: a run of the organization, with its agent (for the public services that take one). */
export async function loadOrgRun(organizationId: string, runId: string) {
  if (!/^run_[0-9A-Za-z]{1,64}$/.test(runId)) throw runNotFound();
  const db = await prisma();
  const run = await db.run.findFirst({ where: { id: runId, organizationId }, include: { agent: true } });
  if (!run) throw runNotFound();
  return run;
}

/**
 * The conditions of the console's runs list for a filter of its query (OrgRunsQuery without the
 * paging): the list and the bulk actions' selection by filter (lib/bulk) read the same rows.
 */
export function orgRunsWhere(
  organizationId: string,
  filter: {
    agent_id?: string;
    status?: string;
    user_id?: string;
    has_error?: boolean;
    from?: Date;
    to?: Date;
    agent_version?: number;
  },
): Prisma.RunWhereInput {
  assertVersionFilter(filter);
  if (filter.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(filter.status)) {
    throw new ApiError("invalid_status", `status must be one of ${RUN_STATUSES.join(", ")}.`, {
      allowed: RUN_STATUSES,
    });
  }
  return {
    AND: [
      {
        organizationId,
        ...(filter.agent_id ? { agentId: filter.agent_id } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.user_id ? { userId: filter.user_id } : {}),
        ...(filter.agent_version ? { agentVersion: filter.agent_version } : {}),
        ...instantRange("createdAt", filter),
      },
      // A run that errored is a failed run: the status index serves the filter.
      filter.has_error === undefined ? {} : filter.has_error ? { status: "failed" } : { status: { not: "failed" } },
    ],
  };
}

/** Console: the organization's runs, newest first, with the agent's name. */
export async function listOrgRuns(opts: {
  organizationId: string;
  agentId?: string;
  status?: string;
  userId?: string;
  hasError?: boolean;
  from?: Date;
  to?: Date;
  agentVersion?: number;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof OrgRunPage>> {
  const where = orgRunsWhere(opts.organizationId, {
    agent_id: opts.agentId,
    status: opts.status,
    user_id: opts.userId,
    has_error: opts.hasError,
    agent_version: opts.agentVersion,
    from: opts.from,
    to: opts.to,
  });
  const db = await prisma();
  const rows = await db.run.findMany({
    where: { AND: [where, afterCursor("createdAt", opts.cursor)] },
    select: { ...RUN_VIEW_SELECT, createdAt: true, agent: { select: { name: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (r) => r.createdAt);
  return {
    runs: page.rows.map((r) => ({
      ...runListItem(r),
      agent_name: r.agent.name,
      created_at: r.createdAt.toISOString(),
    })),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** Console: the run record plus what the page needs to draw its controls. */
export async function getOrgRun(opts: {
  organizationId: string;
  runId: string;
  baseUrl: string;
}): Promise<z.output<typeof OrgRunDetail>> {
  const run = await loadOrgRun(opts.organizationId, opts.runId);
  const db = await prisma();
  const [record, reruns] = await Promise.all([
    recordOf(run.id, opts.baseUrl),
    db.run.findMany({
      where: { rerunOf: run.id, organizationId: opts.organizationId },
      select: { id: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 20,
    }),
  ]);
  return {
    ...record,
    agent_name: run.agent.name,
    created_at: run.createdAt.toISOString(),
    inputs: run.inputs,
    allowed_actions: usefulActions(record.status),
    rerun_of: run.rerunOf,
    reruns: reruns.map((r) => r.id),
  };
}

export const ITEM_STATUSES = ["pending", "completed", "failed", "needs_review", "skipped"] as const;

/** Console: a run's items in index order, optionally of one status. */
export async function listRunItems(opts: {
  organizationId: string;
  runId: string;
  status?: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof RunItemPage>> {
  if (opts.status !== undefined && !(ITEM_STATUSES as readonly string[]).includes(opts.status)) {
    throw new ApiError("invalid_status", `status must be one of ${ITEM_STATUSES.join(", ")}.`, {
      allowed: ITEM_STATUSES,
    });
  }
  const run = await loadOrgRun(opts.organizationId, opts.runId);
  const db = await prisma();
  const rows = await db.runItem.findMany({
    where: { runId: run.id, ...(opts.status ? { status: opts.status } : {}), ...afterPosition("index", opts.cursor) },
    orderBy: { index: "asc" },
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (i) => i.index);
  const steps = stepsOf(run.definition);
  return {
    items: page.rows.map((i) => ({
      item_id: i.id,
      index: i.index,
      status: i.status,
      step_id: i.stepId,
      data: i.data,
      result: i.result,
      error: i.error,
      exception: i.exception,
      resolution: i.resolution,
      updated_at: i.updatedAt.toISOString(),
      timeline: expandTimeline(steps, i.steps),
    })),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
