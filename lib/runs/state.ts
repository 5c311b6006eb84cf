// The run state machine (SPEC 3.1). Every transition, by a control or by the engine, happens in one
// short transaction: the run row is locked, the move is checked against the allowed source states,
// one conditional UPDATE applies it (version + 1), and the audit event is written with it. Two
// racing transitions are therefore serialised and end in one legal state.
import type { Actor } from "../audit";
import { audit } from "../audit";
import type { Prisma } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";

export const RUN_STATUSES = [
  "pending",
  "running",
  "completed",
  "failed",
  "needs_review",
  "cancelled",
  "paused",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const CONTROL_ACTIONS = ["pause", "resume", "cancel", "retry"] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

/** SPEC 3.1, to the letter. */
export const ALLOWED_FROM: Record<ControlAction, readonly RunStatus[]> = {
  pause: ["running", "pending"],
  resume: ["paused", "needs_review", "running"],
  cancel: ["running", "pending", "needs_review", "paused"],
  retry: ["failed"],
};

export const allowedActions = (status: string): ControlAction[] =>
  CONTROL_ACTIONS.filter((a) => (ALLOWED_FROM[a] as readonly string[]).includes(status));

/** The engine's own moves (SPEC 3.1 rule 2 leaves them to us; docs/workflows.md lists them). */
export const ENGINE_MOVES: Record<string, { from: readonly RunStatus[]; to: readonly RunStatus[] }> = {
  start: { from: ["pending"], to: ["running"] },
  finish: { from: ["running"], to: ["completed", "needs_review"] },
  fail: { from: ["running"], to: ["failed"] },
};

export interface LockedRun {
  id: string;
  organization_id: string;
  status: RunStatus;
  epoch: number;
  version: number;
  items_total: number;
  items_completed: number;
  items_failed: number;
  items_needs_review: number;
  items_ready: boolean;
}

export interface TransitionResult {
  from: RunStatus;
  to: RunStatus;
  version: number;
  epoch: number;
}

export const utcNow = () => new Date();

/**
 * Applies one transition inside `tx`. `decide` sees the locked row and returns the target state (and
 * extra column changes), or null when the move is not allowed from there; then nothing is written
 * and `{ refused: current status }` is returned.
 */
export async function transition(opts: {
  tx: Prisma.TransactionClient;
  runId: string;
  action: string;
  actor: Actor;
  triggeredBy?: string | null;
  from: readonly RunStatus[];
  /** Only when the run still has this epoch (engine moves: a stale engine changes nothing). */
  epoch?: number;
  decide?: (run: LockedRun) => { to: RunStatus; data?: Prisma.RunUpdateManyMutationInput; bumpEpoch?: boolean } | null;
  to?: RunStatus;
  data?: Prisma.RunUpdateManyMutationInput;
  /** Start a new engine generation (the caller enqueues the job for it). */
  bumpEpoch?: boolean;
}): Promise<TransitionResult | { refused: RunStatus | null; run: LockedRun | null }> {
  const { tx } = opts;
  const rows = await tx.$queryRaw<LockedRun[]>(P.sql`
    SELECT id, organization_id, status, epoch, version, items_total, items_completed, items_failed,
           items_needs_review, items_ready
    FROM runs WHERE id = ${opts.runId} FOR UPDATE`);
  const run = rows[0];
  if (!run) return { refused: null, run: null };
  if (!opts.from.includes(run.status) || (opts.epoch !== undefined && run.epoch !== opts.epoch)) {
    return { refused: run.status, run };
  }
  const decided = opts.decide ? opts.decide(run) : { to: opts.to!, data: opts.data, bumpEpoch: opts.bumpEpoch };
  if (!decided) return { refused: run.status, run };
  const version = run.version + 1;
  const epoch = decided.bumpEpoch ? run.epoch + 1 : run.epoch;
  const updated = await tx.run.updateMany({
    where: { id: run.id, status: { in: [...opts.from] }, version: run.version },
    data: { ...decided.data, status: decided.to, version, epoch },
  });
  // The row is locked: this cannot miss, but a silent no-op would corrupt the audit trail.
  if (updated.count !== 1) throw new Error(`run ${run.id}: locked transition did not apply`);
  await audit({
    tx,
    organizationId: run.organization_id,
    actor: opts.actor,
    action: `run.${opts.action}`,
    targetType: "run",
    targetId: run.id,
    data: { from: run.status, to: decided.to, seq: version, triggered_by: opts.triggeredBy ?? null },
  });
  return { from: run.status, to: decided.to, version, epoch };
}

export const isRefused = (
  r: TransitionResult | { refused: RunStatus | null; run: LockedRun | null },
): r is { refused: RunStatus | null; run: LockedRun | null } => "refused" in r;

export const SYSTEM: Actor = { type: "system", label: "system" };
