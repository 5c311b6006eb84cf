// The run state machine (docs/workflows.md, States and transitions). Every transition, by a control or by the engine, happens in one
// short transaction: the run row is locked, the move is checked against the allowed source states,
// one conditional UPDATE applies it (version + 1), and the audit event is written with it. Two
// racing transitions are therefore serialised and end in one legal state.
import type { Actor } from "../audit";
import { audit, systemActor } from "../audit";
import { callbackBaseUrl, enqueueRunCallback } from "../callbacks/events";
import { nudgeDeliverer } from "../callbacks/service";
import { prisma } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { addUsageIn } from "../usage/recorder";
import { readRunIn } from "./read";
import { runRecord } from "./record";
import { announceRun } from "./signals";
import type { RunStatus } from "./statuses";

// The statuses live apart so that browser code can name them; importers of this module keep them.
export { RUN_STATUSES, type RunStatus } from "./statuses";

export const CONTROL_ACTIONS = ["pause", "resume", "cancel", "retry"] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

/**
 * Every move a run can make: the four controls exactly as documented, then the engine's and
 * the queue's own moves (docs/workflows.md lists them). The one
 * source for controls, the engine, the run job and approvals: `transition` refuses anything else.
 *
 * `fail` is allowed from `pending` too: a run whose every queue attempt died before its engine
 * could start it would otherwise wait in `pending` forever; failed, a person can `retry` it.
 */
export const RUN_MOVES = {
  pause: { from: ["running", "pending"], to: ["paused"] },
  // From `running` too, as the specification says: that move changes nothing (NO_OP_CONTROLS).
  resume: { from: ["paused", "needs_review", "running"], to: ["running"] },
  cancel: { from: ["running", "pending", "needs_review", "paused"], to: ["cancelled"] },
  retry: { from: ["failed"], to: ["pending"] },
  start: { from: ["pending"], to: ["running"] },
  finish: { from: ["running"], to: ["completed", "needs_review"] },
  fail: { from: ["pending", "running"], to: ["failed"] },
} as const satisfies Record<string, { from: readonly RunStatus[]; to: readonly RunStatus[] }>;
export type RunMove = keyof typeof RUN_MOVES;

/** The states each control is allowed from (docs/workflows.md, States and transitions). */
export const ALLOWED_FROM: Record<ControlAction, readonly RunStatus[]> = {
  pause: RUN_MOVES.pause.from,
  resume: RUN_MOVES.resume.from,
  cancel: RUN_MOVES.cancel.from,
  retry: RUN_MOVES.retry.from,
};

export const allowedActions = (status: string): ControlAction[] =>
  CONTROL_ACTIONS.filter((a) => (ALLOWED_FROM[a] as readonly string[]).includes(status));

/**
 * Controls the specification allows that change nothing: resuming a running run answers the run as
 * it is and writes nothing (no "running -> running" in the audit trail); the console does not offer
 * them and bulk actions count them as not allowed.
 */
export const NO_OP_CONTROLS: Partial<Record<ControlAction, readonly RunStatus[]>> = { resume: ["running"] };

const isNoOp = (action: ControlAction, status: string) =>
  (NO_OP_CONTROLS[action] as readonly string[] | undefined)?.includes(status) ?? false;

/** The states a control would change a run from: ALLOWED_FROM without the no-ops. */
export const usefulFrom = (action: ControlAction): readonly RunStatus[] =>
  ALLOWED_FROM[action].filter((s) => !isNoOp(action, s));

/** The controls that would change a run in `status` (what the console offers). */
export const usefulActions = (status: string): ControlAction[] =>
  allowedActions(status).filter((a) => !isNoOp(a, status));

/** Whether `from -> to` is a move of the table (and, with `move`, that move). */
export function isLegalMove(from: string, to: string, move?: RunMove): boolean {
  const moves = move ? [RUN_MOVES[move]] : Object.values(RUN_MOVES);
  return moves.some((m) => (m.from as readonly string[]).includes(from) && (m.to as readonly string[]).includes(to));
}

export interface LockedRun {
  id: string;
  organization_id: string;
  agent_id: string;
  callback_url: string | null;
  status: RunStatus;
  epoch: number;
  version: number;
  items_total: number;
  items_completed: number;
  items_failed: number;
  items_needs_review: number;
  items_ready: boolean;
  agent_version: number | null;
  /** The agent has a canary rollout on (lib/usage/recorder.ts then counts the run's end by version). */
  rollout_on: boolean | null;
}

export interface TransitionResult {
  from: RunStatus;
  to: RunStatus;
  version: number;
  epoch: number;
  /** The move changed nothing (NO_OP_CONTROLS): nothing was written or audited. */
  unchanged?: true;
}

export const utcNow = () => new Date();

/** The usage figure a move into each ending (or waiting) state adds to (lib/usage). */
const RUN_END_USAGE: Partial<Record<RunStatus, "runsCompleted" | "runsFailed" | "runsCancelled" | "runsNeedsReview">> =
  {
    completed: "runsCompleted",
    failed: "runsFailed",
    cancelled: "runsCancelled",
    needs_review: "runsNeedsReview",
  };

/**
 * Applies one move of RUN_MOVES inside `tx`. The run must be in one of the move's source states
 * (`onlyFrom` narrows them further); `decide` sees the locked row and returns the target state (and
 * extra column changes), or null when the move does not apply; then nothing is written and
 * `{ refused: current status }` is returned. A target outside the move's table entry is a bug and
 * throws.
 */
export async function transition(opts: {
  tx: Prisma.TransactionClient;
  runId: string;
  move: RunMove;
  actor: Actor;
  triggeredBy?: string | null;
  onlyFrom?: readonly RunStatus[];
  /** Only when the run still has this epoch (engine moves: a stale engine changes nothing). */
  epoch?: number;
  decide?: (run: LockedRun) => { to: RunStatus; data?: Prisma.RunUpdateManyMutationInput; bumpEpoch?: boolean } | null;
  to?: RunStatus;
  data?: Prisma.RunUpdateManyMutationInput;
  /** Start a new engine generation (the caller enqueues the job for it). */
  bumpEpoch?: boolean;
  /** More details for the move's audit event (a bulk action names itself: `bulk_action_id`). */
  auditData?: Record<string, string>;
}): Promise<TransitionResult | { refused: RunStatus | null; run: LockedRun | null }> {
  const { tx } = opts;
  const entry = RUN_MOVES[opts.move];
  const from: readonly RunStatus[] = opts.onlyFrom
    ? opts.onlyFrom.filter((s) => (entry.from as readonly RunStatus[]).includes(s))
    : entry.from;
  const rows = await tx.$queryRaw<LockedRun[]>(P.sql`
    SELECT id, organization_id, agent_id, callback_url, status, epoch, version, items_total, items_completed, items_failed,
           items_needs_review, items_ready, agent_version,
           (SELECT a.rollout IS NOT NULL FROM agents a WHERE a.id = runs.agent_id) AS rollout_on
    FROM runs WHERE id = ${opts.runId} FOR UPDATE`);
  const run = rows[0];
  if (!run) return { refused: null, run: null };
  if (!from.includes(run.status) || (opts.epoch !== undefined && run.epoch !== opts.epoch)) {
    return { refused: run.status, run };
  }
  const decided = opts.decide ? opts.decide(run) : { to: opts.to!, data: opts.data, bumpEpoch: opts.bumpEpoch };
  if (!decided) return { refused: run.status, run };
  if (!(entry.to as readonly RunStatus[]).includes(decided.to)) {
    throw new Error(`run ${run.id}: ${opts.move} cannot lead to ${decided.to}`);
  }
  // A move to the state the run is in, without a new engine pass, changes nothing: nothing is written.
  if (decided.to === run.status && !decided.bumpEpoch) {
    return { from: run.status, to: run.status, version: run.version, epoch: run.epoch, unchanged: true };
  }
  const version = run.version + 1;
  const epoch = decided.bumpEpoch ? run.epoch + 1 : run.epoch;
  const updated = await tx.run.updateMany({
    where: { id: run.id, status: { in: [...from] }, version: run.version },
    data: { ...decided.data, status: decided.to, version, epoch },
  });
  // The row is locked: this cannot miss, but a silent no-op would corrupt the audit trail.
  if (updated.count !== 1) throw new Error(`run ${run.id}: locked transition did not apply`);
  await audit({
    tx,
    organizationId: run.organization_id,
    actor: opts.actor,
    action: `run.${opts.move}`,
    targetType: "run",
    targetId: run.id,
    data: { from: run.status, to: decided.to, seq: version, triggered_by: opts.triggeredBy ?? null, ...opts.auditData },
  });
  // Usage rollups (lib/usage): a run's end, in the move's transaction.
  const ended = RUN_END_USAGE[decided.to];
  if (ended) {
    await addUsageIn(tx, {
      organizationId: run.organization_id,
      agentId: run.agent_id,
      [ended]: 1,
      // While the agent has a canary rollout, the end counts for the run's version too (its figures and guards).
      ...(run.rollout_on && run.agent_version !== null ? { agentVersion: run.agent_version } : {}),
    });
  }
  // The completion callback of this move, in this transaction (with the audit event above in its events).
  const ids = { runId: run.id, agentId: run.agent_id, organizationId: run.organization_id };
  const queued = await enqueueRunCallback(
    tx,
    {
      id: run.id,
      organizationId: run.organization_id,
      agentId: run.agent_id,
      callbackUrl: run.callback_url,
      status: decided.to,
    },
    async () => {
      const found = await readRunIn(tx, ids);
      return found && runRecord(found.run, { ...found, baseUrl: callbackBaseUrl() });
    },
  );
  if (queued) nudgeDeliverer();
  return { from: run.status, to: decided.to, version, epoch };
}

export const isRefused = (
  r: TransitionResult | { refused: RunStatus | null; run: LockedRun | null },
): r is { refused: RunStatus | null; run: LockedRun | null } => "refused" in r;

export const SYSTEM: Actor = systemActor();

/**
 * One transition in its own transaction, announced in-process once committed (engine and job
 * moves; controls announce themselves after their larger transaction).
 */
export async function moveRun(opts: Omit<Parameters<typeof transition>[0], "tx">) {
  const db = await prisma();
  const result = await db.$transaction((tx) => transition({ ...opts, tx }));
  if (!isRefused(result)) announceRun(opts.runId, { status: result.to, epoch: result.epoch });
  return result;
}
