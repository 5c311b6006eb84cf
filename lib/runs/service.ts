// Runs of a workflow agent: list, fetch, and the four controls of SPEC 3.1 (pause, resume, cancel,
// retry). Each control is one locked conditional transition (lib/runs/state.ts); one that is not
// allowed from the current state is 409 invalid_state_transition naming what is allowed.
import type { Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma } from "../generated/prisma/client";
import { enqueue, transactionWithJobs } from "../queue";
import { runListItem, runRecord } from "./record";
import {
  allowedActions,
  isRefused,
  RUN_STATUSES,
  transition,
  utcNow,
  type ControlAction,
  type RunStatus,
} from "./state";

export function requireWorkflowAgent(agent: Agent) {
  if (agent.kind !== "workflow") {
    throw new ApiError(
      "runtime_not_applicable",
      "Run routes apply to workflow agents only; this agent is conversational.",
    );
  }
}

const runNotFound = () => new ApiError("run_not_found", "Run not found.");

export async function loadRun(agent: Agent, runId: string) {
  requireWorkflowAgent(agent);
  if (!/^run_[0-9A-Za-z]{1,64}$/.test(runId)) throw runNotFound();
  const db = await prisma();
  const run = await db.run.findFirst({ where: { id: runId, agentId: agent.id, organizationId: agent.organizationId } });
  if (!run) throw runNotFound();
  return run;
}

export async function listRuns(opts: { agent: Agent; limit: number; status?: string }) {
  requireWorkflowAgent(opts.agent);
  if (opts.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(opts.status)) {
    throw new ApiError("invalid_status", `status must be one of ${RUN_STATUSES.join(", ")}.`, {
      allowed: RUN_STATUSES,
    });
  }
  const db = await prisma();
  const rows = await db.run.findMany({
    where: { agentId: opts.agent.id, ...(opts.status ? { status: opts.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit,
  });
  return rows.map(runListItem);
}

export async function getRun(opts: { agent: Agent; runId: string; baseUrl: string }) {
  const run = await loadRun(opts.agent, opts.runId);
  return recordOf(run.id, opts.baseUrl);
}

export async function recordOf(runId: string, baseUrl: string) {
  const db = await prisma();
  const [run, outputFiles, events] = await Promise.all([
    db.run.findUniqueOrThrow({ where: { id: runId } }),
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
      // Resuming a running run changes nothing: its engine is already at work.
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
  const result = await transactionWithJobs(async (tx) => {
    let startsEngine = false;
    const t = await transition({
      tx,
      runId: run.id,
      move: opts.action,
      actor: opts.actor,
      triggeredBy: opts.triggeredBy,
      decide: (locked) => {
        const effects = controlEffects(opts.action, locked.status);
        startsEngine = effects.startsEngine;
        return { ...effects, bumpEpoch: effects.startsEngine };
      },
    });
    if (isRefused(t)) return t;
    if (opts.action === "retry") await resetFatalItems(tx, run.id);
    if (startsEngine) await enqueue("run", { runId: run.id, epoch: t.epoch, baseUrl: opts.baseUrl }, { tx });
    return t;
  });
  if (isRefused(result)) {
    const current = result.refused ?? run.status;
    throw new ApiError("invalid_state_transition", `Cannot ${opts.action} a run that is ${current}.`, {
      current_status: current,
      allowed_actions: allowedActions(current),
    });
  }
  return recordOf(run.id, opts.baseUrl);
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
