// Every periodic task of a worker process, in one table: the sweeps that repair what a dead process
// left behind or what expired, and the pollers of outbox tables. The domains own what each task does
// (a plain function); this file owns when it runs. A new periodic task (a key roll, alerts) is one
// more row here: see ARCHITECTURE.md, Background work, for when a task belongs here rather than in
// the durable queue.
import { evaluateAlertsExclusively } from "../alerts/evaluate";
import { recoverReplies } from "../conversations/recovery";
import { leaseMs } from "../conversations/replies";
import { env } from "../env";
import { deleteExpiredExports } from "../exports/service";
import { deleteExpiredUploads } from "../files/resumable";
import { deleteExpiredIdempotencyRecords } from "../idempotency";
import { revokeRolledKeys } from "../keys/service";
import { log } from "../log";
import { sweepRetentionExclusively } from "../retention/service";

/** A task run now and every `everyMs` in each worker process; a failure is logged and the next turn comes. */
interface Sweep {
  what: string;
  everyMs: () => number;
  run: () => Promise<unknown>;
}

export const SWEEPS: Sweep[] = [
  {
    // Replies whose producer died are taken over: checked twice a lease.
    what: "reply recovery",
    everyMs: () => Math.max(1_000, leaseMs() / 2),
    run: () => recoverReplies(),
  },
  {
    // Loaded when it first runs: the engine is not loaded before a worker needs it.
    // Runs whose job's last attempt died with its process end `failed`: checked twice a heartbeat
    // (the job's heartbeat lapses a heartbeat after the death, so the run ends within about two).
    what: "orphaned run sweep",
    everyMs: () => (env().QUEUE_HEARTBEAT_SECONDS * 1000) / 2,
    run: async () => (await import("../workflow/job")).failOrphanedRuns(),
  },
  {
    // Bulk actions whose job's last attempt died with its process end `failed` (lib/bulk/job.ts):
    // checked twice a heartbeat, as orphaned runs.
    what: "orphaned bulk action sweep",
    everyMs: () => (env().QUEUE_HEARTBEAT_SECONDS * 1000) / 2,
    run: async () => (await import("../bulk/job")).failOrphanedBulkActions(),
  },
  {
    // Evaluations whose job's last attempt died with its process get a new job, which continues
    // from their cases (lib/evaluations/job.ts): checked twice a heartbeat, as orphaned runs.
    what: "orphaned evaluation sweep",
    everyMs: () => (env().QUEUE_HEARTBEAT_SECONDS * 1000) / 2,
    run: async () => (await import("../evaluations/job")).resumeOrphanedEvaluations(),
  },
  {
    // Expired unfinished uploads lose their bytes and records.
    what: "upload sweep",
    everyMs: () => env().UPLOAD_CLEANUP_INTERVAL_MS,
    run: () => deleteExpiredUploads(),
  },
  {
    // History past each organization's retention (RETENTION_DAYS, or the organization's own), in
    // small batches for at most a minute a turn; what is left waits for the next turn. One process
    // sweeps at a time (an advisory lock on PostgreSQL; the others skip their turn).
    what: "retention sweep",
    everyMs: () => 10 * 60_000,
    run: () => sweepRetentionExclusively({ budgetMs: 60_000 }),
  },
  {
    // Idempotency records past their 24 hours: ignored when met, deleted here.
    what: "idempotency sweep",
    everyMs: () => 60_000,
    run: () => deleteExpiredIdempotencyRecords(),
  },
  {
    // Rolled Access Keys past their grace are revoked (verification already refuses them at
    // revoke_at; this writes it down with an audit row by the system).
    what: "key roll sweep",
    everyMs: () => env().KEY_ROLL_SWEEP_MS,
    run: () => revokeRolledKeys(),
  },
  {
    // Export files past their 7 days are deleted; the exports' rows stay and answer 410.
    what: "export sweep",
    everyMs: () => 10 * 60_000,
    run: () => deleteExpiredExports(),
  },
  {
    // Alert rules against the usage rollups: each fires and resolves once (lib/alerts). One process
    // evaluates at a time (an advisory lock on PostgreSQL; the others skip their turn).
    what: "alert evaluation",
    everyMs: () => env().ALERT_EVALUATION_INTERVAL_MS,
    run: () => evaluateAlertsExclusively(),
  },
  {
    // Canary rollouts' guard rules against each canary's own traffic (lib/alerts/guards.ts); a
    // breach rolls the rollout back. The rollback is conditional, so every process may evaluate.
    what: "rollout guards",
    everyMs: () => env().ALERT_EVALUATION_INTERVAL_MS,
    run: async () => (await import("../alerts/guards")).evaluateRolloutGuards(),
  },
];

/** Runs `task` now and every `ms`, logging failures; returns a function that stops it. */
function every(ms: number, what: string, task: () => Promise<unknown>): () => void {
  const run = () => task().catch((err) => log.warn({ err: { message: (err as Error).message } }, `${what} failed`));
  void run();
  const timer = setInterval(run, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Starts every sweep; the function returned stops them (a sweep already running finishes on its own). */
export function startSweeps(): () => void {
  const stops = SWEEPS.map((sweep) => every(sweep.everyMs(), sweep.what, sweep.run));
  return () => stops.forEach((stop) => stop());
}

/**
 * Starts the outbox pollers: completion callbacks are rows of an outbox table that a poller
 * delivers (lib/callbacks/deliver.ts), not queue jobs. The function returned stops them and waits
 * for the deliveries in flight.
 */
export async function startPollers(): Promise<() => Promise<void>> {
  const stops = [(await import("../callbacks/deliver")).startCallbackDeliverer()];
  return async () => {
    for (const stop of stops) await stop();
  };
}
