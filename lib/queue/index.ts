// The durable job queue: pg-boss on the same database as everything else (PGlite's instance in the
// embedded mode, PostgreSQL at scale). Jobs are enqueued in the same transaction as the rows they
// act on, so a committed trigger always has its job and a rolled-back one never does.
//
// pg-boss 10 (its newest release that supports Node 20) installs and migrates its tables, inserts
// and fetches jobs (FOR UPDATE SKIP LOCKED) and supervises them: every QUEUE_SUPERVISE_SECONDS it
// retries, or fails for good, an active job whose heartbeat lapsed, and it archives old jobs. The
// workers are this module's: one loop per concurrency slot, a heartbeat and an AbortSignal per
// attempt, settling checked against the attempt's claim (lib/queue/table.ts), retries with capped
// exponential backoff, and wake-ups: in process at once, across processes by LISTEN/NOTIFY on
// PostgreSQL (lib/queue/listener.ts).
import PgBoss from "pg-boss";
import { database, type Database } from "../db";
import { env } from "../env";
import type { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { pgliteDb, prismaDb, type QueueDb } from "./adapters";
import { FAIR_FIELD, JOBS, QUEUE_NAMES, type JobHandler, type JobInput, type QueueName } from "./jobs";
import { listenForJobs, NOTIFY_SQL, type Listener } from "./listener";
import {
  beat,
  capRetryDelays,
  completeClaim,
  ensureLiveJobIndex,
  failClaim,
  QUEUE_SCHEMA,
  resendCarriedOverJobs,
  setAsideNewerSchema,
  fairTag,
  shareOfQueue,
  type Claim,
} from "./table";
import { processSlot } from "../process-state";

export { type JobData, type JobHandler, type JobInfo, type QueueName } from "./jobs";
export { liveJobExists, QUEUE_SCHEMA } from "./table";

/** Retries after the first attempt (QUEUE_RETRY_LIMIT): a handler seeing `retryCount >= queueRetryLimit()` runs the last. */
export const queueRetryLimit = () => env().QUEUE_RETRY_LIMIT;

/** Longest an attempt may run: then its signal aborts and its job fails (and is retried if it may). */
const MAX_ATTEMPT_SECONDS = 60 * 60;
/** pg-boss priorities are 32-bit integers: fair-queuing tags stop here (order by age beyond it). */
const MAX_FAIR_TAG = 2_000_000_000;
/** Poll delay of an idle worker, and while the PostgreSQL listener delivers wake-ups. */
const POLL_MS = 500;
const LISTENING_POLL_MS = 5_000;

interface Attempt {
  claim: Claim;
  abort: AbortController;
  /** Fired when the worker begins to stop: the handler finishes what is in flight and starts nothing new. */
  stopping: AbortController;
  settled: boolean;
  heartbeat?: NodeJS.Timeout;
}

interface Slot {
  stopping: boolean;
  attempt?: Attempt;
  wake(): void;
  done: Promise<void>;
}

interface QueueState {
  boss: PgBoss;
  db: QueueDb;
  database: Database;
  /** The slots taking jobs, per queue (the ones woken). */
  slots: Map<string, Slot[]>;
  /** Every slot whose loop has not ended: stopped ones may still be running a job. */
  live: Set<Slot>;
  turn: number;
  listener?: Listener;
  upkeep?: NodeJS.Timeout;
}

const current = processSlot<Promise<QueueState>>("queue");

async function start(): Promise<QueueState> {
  const db = await database();
  const setAside = await setAsideNewerSchema(db.prisma);
  if (setAside) log.warn(setAside, "queue: a newer pg-boss schema was set aside; its waiting jobs are enqueued again");
  const boss = new PgBoss({
    schema: QUEUE_SCHEMA,
    schedule: false,
    maintenanceIntervalSeconds: env().QUEUE_SUPERVISE_SECONDS,
    ...(db.kind === "pglite" ? { db: pgliteDb(db.pglite!) } : { connectionString: db.connectionString!, max: 4 }),
  });
  boss.on("error", (err) => log.error({ err: { message: err.message } }, "queue error"));
  await boss.start();
  // A job's expiry is its heartbeat (lib/queue/table.ts). createQueue leaves an existing queue as
  // it was: the settings of this start apply to new jobs.
  const settings = {
    retryLimit: queueRetryLimit(),
    retryDelay: 1,
    retryBackoff: true,
    expireInSeconds: env().QUEUE_HEARTBEAT_SECONDS,
  };
  for (const name of QUEUE_NAMES) {
    await retryDeadlock(() => boss.createQueue(name, { name, ...settings }));
    await retryDeadlock(() => boss.updateQueue(name, { name, ...settings }));
  }
  await ensureLiveJobIndex(boss.getDb() as QueueDb);
  const resent = await resendCarriedOverJobs(db.prisma, QUEUE_NAMES, (txDb, name, data) =>
    boss.send(name, data, { db: txDb }),
  );
  if (resent) log.warn({ jobs: resent }, "queue: jobs of the set-aside schema enqueued again");
  return { boss, db: boss.getDb() as QueueDb, database: db, slots: new Map(), live: new Set(), turn: 0 };
}

function state(): Promise<QueueState> {
  let queue = current.get();
  if (!queue) {
    queue = start().catch((e) => {
      current.set(undefined);
      throw e;
    });
    current.set(queue);
  }
  return queue;
}

/**
 * Fair share (lib/workflow/engine.ts): whether another organization's job of the queue has waited
 * `waitedSeconds` for a worker, and how many of this organization's running jobs are older than `jobId`.
 */
export async function queueShare(opts: {
  name: QueueName;
  organizationId: string;
  jobId: string;
  waitedSeconds: number;
}): Promise<{ othersWaiting: boolean; ahead: number }> {
  const s = await state();
  return shareOfQueue(s.db, {
    name: opts.name,
    field: "organizationId",
    value: opts.organizationId,
    jobId: opts.jobId,
    waitedSeconds: opts.waitedSeconds,
  });
}

/** The started pg-boss instance (sending and reading jobs directly: tests, tooling). */
export async function queue(): Promise<PgBoss> {
  return (await state()).boss;
}

/**
 * Stops the queue: no more fetches; jobs running in this process are told (`stopping`, as when their
 * worker stops: a run's pass lets its items in flight finish, launches no more and hands the run
 * over) and get up to `timeoutMs` to finish (at least 1 s), then their jobs are failed (to be
 * retried) and their handlers' signals aborted.
 */
export async function stopQueue(timeoutMs = 5_000) {
  const pending = current.get();
  current.set(undefined);
  const s = await pending?.catch(() => undefined);
  if (!s) return;
  s.slots.clear();
  const slots = [...s.live];
  for (const slot of slots) stopSlot(slot);
  const finished = await Promise.race([
    Promise.all(slots.map((slot) => slot.done)).then(() => true),
    sleep(Math.max(1_000, timeoutMs)).then(() => false),
  ]);
  if (!finished) {
    for (const slot of slots) {
      if (slot.attempt) await giveUp(s, slot.attempt, new Error("the worker stopped while the job was running"));
    }
  }
  clearInterval(s.upkeep);
  await s.listener?.close();
  await s.boss.stop({ graceful: false }).catch(() => {});
}

/**
 * A transaction in which jobs may be enqueued (`enqueue(..., { tx })`). The queue is started before
 * the transaction opens: on PGlite's single connection, starting pg-boss inside the transaction
 * would wait on the transaction that waits on it.
 */
export async function transactionWithJobs<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  await state();
  const db = await database();
  return db.prisma.$transaction(fn);
}

/**
 * Enqueues a job; with `tx` the job commits or rolls back with the caller's Prisma transaction
 * (open it with `transactionWithJobs`). Local workers are woken at once instead of waiting for
 * their next poll; on PostgreSQL the other processes' workers are notified when it commits.
 */
export async function enqueue<N extends QueueName>(
  name: N,
  data: JobInput<N>,
  opts: { tx?: Prisma.TransactionClient; singletonKey?: string } = {},
) {
  const s = await state();
  const db = opts.tx ? prismaDb(opts.tx) : s.db;
  const parsed = JOBS[name].parse(data) as Record<string, unknown>;
  // Fair share between the values of FAIR_FIELD (organizations): fetched in fair-queuing order.
  const field = FAIR_FIELD[name];
  const value = field ? parsed[field] : undefined;
  const priority = typeof value === "string" ? -Math.min(MAX_FAIR_TAG, await fairTag(db, name, field!, value)) : 0;
  const id = await s.boss.send(name, parsed, {
    db,
    priority,
    ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
  });
  if (s.database.kind === "postgres") await db.executeSql(NOTIFY_SQL, [name]);
  wakeLocalWorkers(name);
  return id;
}

/** Wakes one local worker of the queue (round robin): one new job needs one fetch, and a busy
 *  worker fetches again as soon as its job ends. */
export function wakeLocalWorkers(name: string) {
  void current
    .get()
    ?.then((s) => wakeOne(s, name))
    .catch(() => {});
}

function wakeOne(s: QueueState, name: string) {
  const slots = s.slots.get(name) ?? [];
  if (slots.length) slots[s.turn++ % slots.length]!.wake();
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
  });

const errorOutput = (err: unknown) =>
  err instanceof Error ? { name: err.name, message: err.message } : { name: "Error", message: String(err) };

/** Fails the attempt's job once (retried if attempts remain), then aborts the handler's signal. */
async function giveUp(s: QueueState, attempt: Attempt, reason: Error) {
  if (attempt.settled) return;
  attempt.settled = true;
  clearInterval(attempt.heartbeat);
  await failClaim(s.db, attempt.claim, errorOutput(reason)).catch((err) =>
    log.warn({ queue: attempt.claim.name, job_id: attempt.claim.id, err: errorOutput(err) }, "job fail failed"),
  );
  attempt.abort.abort(reason);
}

async function runAttempt<N extends QueueName>(
  s: QueueState,
  slot: Slot,
  name: N,
  handler: JobHandler<N>,
  job: PgBoss.JobWithMetadata<unknown>,
) {
  const attempt: Attempt = {
    claim: { name, id: job.id, retryCount: job.retryCount },
    abort: new AbortController(),
    stopping: new AbortController(),
    settled: false,
  };
  slot.attempt = attempt;
  if (slot.stopping) attempt.stopping.abort(); // fetched as the worker began to stop
  const settle = async (what: string, op: () => Promise<unknown>) => {
    if (attempt.settled) return;
    attempt.settled = true;
    await op().catch((err) => log.warn({ queue: name, job_id: job.id, err: errorOutput(err) }, `job ${what} failed`));
  };
  // Beats every half heartbeat; a beat that finds the claim gone aborts the handler (its result can
  // no longer land), one that fails says nothing about the claim.
  const heartbeat = (attempt.heartbeat = setInterval(
    () => {
      beat(s.db, attempt.claim).then(
        (held) => {
          if (!held && !attempt.settled) attempt.abort.abort(new Error("the job is no longer held by this worker"));
        },
        (err) => log.warn({ queue: name, job_id: job.id, err: errorOutput(err) }, "job heartbeat failed"),
      );
    },
    Math.max(1, Number(job.expireInSeconds)) * 500,
  ));
  heartbeat.unref?.();
  const deadline = setTimeout(
    () => void giveUp(s, attempt, new Error(`the job ran longer than ${MAX_ATTEMPT_SECONDS} s`)),
    MAX_ATTEMPT_SECONDS * 1000,
  );
  deadline.unref?.();
  try {
    const data = JOBS[name].safeParse(job.data);
    if (!data.success) {
      log.error({ queue: name, job_id: job.id }, "job with invalid data dropped");
      await settle("completion", () => completeClaim(s.db, attempt.claim));
      return;
    }
    try {
      await handler(data.data as Parameters<JobHandler<N>>[0], {
        id: job.id,
        retryCount: job.retryCount,
        signal: attempt.abort.signal,
        stopping: attempt.stopping.signal,
      });
    } catch (err) {
      await settle("failure", () => failClaim(s.db, attempt.claim, errorOutput(err)));
      return;
    }
    await settle("completion", () => completeClaim(s.db, attempt.claim));
  } finally {
    clearInterval(heartbeat);
    clearTimeout(deadline);
    slot.attempt = undefined;
  }
}

function startSlot<N extends QueueName>(s: QueueState, name: N, handler: JobHandler<N>): Slot {
  let woken = false;
  let resume: (() => void) | undefined;
  const slot: Slot = {
    stopping: false,
    wake() {
      woken = true;
      resume?.();
    },
    done: Promise.resolve(),
  };
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => resume?.(), ms);
      resume = () => {
        resume = undefined;
        clearTimeout(t);
        resolve();
      };
    });
  slot.done = (async () => {
    while (!slot.stopping) {
      woken = false;
      let job: PgBoss.JobWithMetadata<unknown> | undefined;
      try {
        [job] = await s.boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
      } catch (err) {
        log.warn({ queue: name, err: errorOutput(err) }, "job fetch failed");
      }
      // After a job the worker fetches again at once: a backlog drains without poll delays.
      if (job) await runAttempt(s, slot, name, handler, job);
      else if (!slot.stopping && !woken) await idle(s.listener?.listening ? LISTENING_POLL_MS : POLL_MS);
    }
  })().finally(() => s.live.delete(slot));
  s.live.add(slot);
  return slot;
}

/** The slot fetches no more jobs; one it is running goes on (`stopQueue` bounds it). */
/** The slot takes no more jobs; the handler of the job it runs is told (`stopping`). */
function stopSlot(slot: Slot) {
  slot.stopping = true;
  slot.attempt?.stopping.abort();
  slot.wake();
}

/** Once per process with workers: the retry-delay cap, and on PostgreSQL the listener. */
function startUpkeep(s: QueueState) {
  if (s.upkeep) return;
  s.upkeep = setInterval(() => {
    for (const name of s.slots.keys()) {
      capRetryDelays(s.db, name).catch((err) => log.warn({ queue: name, err: errorOutput(err) }, "retry cap failed"));
    }
  }, env().QUEUE_SUPERVISE_SECONDS * 1000);
  s.upkeep.unref?.();
  if (s.database.kind === "postgres") {
    s.listener = listenForJobs(
      s.database.connectionString!,
      (name) => wakeOne(s, name),
      () => [...s.slots.values()].flat().forEach((slot) => slot.wake()),
    );
  }
}

/**
 * Registers a handler for a queue in this process: `concurrency` slots, each fetching one job at a
 * time. Returns a function that stops them taking jobs; jobs they are running go on until they end
 * or `stopQueue` ends them.
 */
export async function work<N extends QueueName>(
  name: N,
  handler: JobHandler<N>,
  concurrency = 4,
): Promise<() => Promise<void>> {
  const s = await state();
  const slots = Array.from({ length: concurrency }, () => startSlot(s, name, handler));
  s.slots.set(name, [...(s.slots.get(name) ?? []), ...slots]);
  startUpkeep(s);
  return async () => {
    s.slots.set(
      name,
      (s.slots.get(name) ?? []).filter((slot) => !slots.includes(slot)),
    );
    slots.forEach(stopSlot);
  };
}

/**
 * Processes starting at once create the same queues, and pg-boss's create_queue (a table per queue)
 * can deadlock with itself across them (PostgreSQL aborts one with 40P01): the aborted one tries
 * again; creating an existing queue changes nothing.
 */
async function retryDeadlock<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
    }
  }
}
