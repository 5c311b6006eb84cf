// The durable job queue: pg-boss on the same database as everything else (PGlite's instance in the
// embedded mode, PostgreSQL at scale). Jobs are enqueued in the same transaction as the rows they
// act on, so a committed trigger always has its job and a rolled-back one never does.
import { PgBoss, fromPglite, fromPrisma } from "pg-boss";
import { database } from "../db";
import { env } from "../env";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { JOBS, QUEUE_NAMES, type JobHandler, type JobInput, type QueueName } from "./jobs";

export { QUEUE_NAMES, type JobData, type JobHandler, type JobInfo, type QueueName } from "./jobs";

/** Retries after the first attempt (QUEUE_RETRY_LIMIT): a handler seeing `retryCount >= queueRetryLimit()` runs the last. */
export const queueRetryLimit = () => env().QUEUE_RETRY_LIMIT;

/** pg-boss's schema in the service's database (pg-boss's default name). */
const QUEUE_SCHEMA = "pgboss";

/**
 * SQL condition: the queue `name` holds a job that will still run whose data's `field` equals
 * `value` (a column of the caller's query). In pg-boss 12's terms: `created` (waiting, perhaps
 * behind others), `retry` (waiting for its retry), or `active` unless it is on its last attempt and
 * its worker is gone (heartbeat, or expiry, lapsed): pg-boss fails such a job only at its next
 * monitor pass (every minute), and nothing will run it again. A job that completed, was cancelled,
 * or failed for good is not live either.
 */
export function liveJobExists(name: QueueName, field: string, value: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (
    SELECT 1 FROM ${Prisma.raw(QUEUE_SCHEMA)}.job j
    WHERE j.name = ${name} AND j.data->>${field} = ${value}
      AND (j.state IN ('created', 'retry')
        OR (j.state = 'active' AND (j.retry_count < j.retry_limit OR NOT COALESCE(
          (j.heartbeat_seconds IS NOT NULL
            AND COALESCE(j.heartbeat_on, j.started_on) + j.heartbeat_seconds * interval '1 second' < now())
          OR j.started_on + j.expire_seconds * interval '1 second' < now(), false)))))`;
}

const g = globalThis as unknown as { __awsBoss?: Promise<PgBoss> };

async function createBoss(): Promise<PgBoss> {
  const db = await database();
  const common = {
    schema: QUEUE_SCHEMA,
    schedule: false,
    superviseIntervalSeconds: env().QUEUE_SUPERVISE_SECONDS,
  };
  const boss =
    db.kind === "pglite"
      ? new PgBoss({ ...common, db: fromPglite(db.pglite!), backend: "pglite" })
      : new PgBoss({ ...common, connectionString: db.connectionString!, max: 4, useListenNotify: true });
  boss.on("error", (err) => log.error({ err: { message: err.message } }, "queue error"));
  boss.on("warning", (w) => log.warn({ warning: String((w as { message?: string }).message ?? w) }, "queue warning"));
  await boss.start();
  for (const name of QUEUE_NAMES) {
    const settings = { retryLimit: queueRetryLimit(), heartbeatSeconds: env().QUEUE_HEARTBEAT_SECONDS };
    await boss.createQueue(name, {
      ...settings,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      expireInSeconds: 60 * 60,
      notify: db.kind === "postgres",
    });
    // createQueue leaves an existing queue as it was: the settings of this start apply to new jobs.
    await boss.updateQueue(name, settings);
  }
  return boss;
}

export function queue(): Promise<PgBoss> {
  g.__awsBoss ??= createBoss().catch((e) => {
    g.__awsBoss = undefined;
    throw e;
  });
  return g.__awsBoss;
}

export async function stopQueue() {
  const boss = g.__awsBoss;
  g.__awsBoss = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 5_000 }).catch(() => {});
}

/**
 * A transaction in which jobs may be enqueued (`enqueue(..., { tx })`). The queue is started before
 * the transaction opens: on PGlite's single connection, starting pg-boss inside the transaction
 * would wait on the transaction that waits on it.
 */
export async function transactionWithJobs<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  await queue();
  const db = await database();
  return db.prisma.$transaction(fn);
}

/**
 * Enqueues a job; with `tx` the job commits or rolls back with the caller's Prisma transaction
 * (open it with `transactionWithJobs`). Local workers are woken at once instead of waiting for
 * their next poll.
 */
export async function enqueue<N extends QueueName>(
  name: N,
  data: JobInput<N>,
  opts: { tx?: Prisma.TransactionClient; singletonKey?: string } = {},
) {
  const boss = await queue();
  const id = await boss.send(name, JOBS[name].parse(data) as object, {
    ...(opts.tx ? { db: fromPrisma(opts.tx as never) } : {}),
    ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
  });
  wakeLocalWorkers(name);
  return id;
}

const localWorkers = new Map<string, string[]>();

let wakeTurn = 0;

/** Wakes one local worker of the queue (round robin): one new job needs one fetch, and a busy
 *  worker fetches again as soon as its job ends. */
export function wakeLocalWorkers(name: string) {
  const ids = localWorkers.get(name) ?? [];
  if (!ids.length) return;
  const id = ids[wakeTurn++ % ids.length]!;
  void queue().then((boss) => boss.notifyWorker(id));
}

/**
 * Registers a handler for a queue in this process. Returns a function that stops it.
 * One pg-boss worker per slot (not one with localConcurrency) so that each can be woken by id, and
 * each wakes itself after a job: with batchSize 1, pg-boss otherwise waits its full poll delay
 * (5 s with LISTEN/NOTIFY) before the next fetch, and a backlog drains `concurrency` jobs per delay
 * (measured: the last replies of a 50-caller burst waited 5, 10, 15 s on PostgreSQL).
 */
export async function work<N extends QueueName>(
  name: N,
  handler: JobHandler<N>,
  concurrency = 4,
): Promise<() => Promise<void>> {
  const boss = await queue();
  const ids: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    const self = { id: "" };
    self.id = await boss.work(
      name,
      { localConcurrency: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 },
      async ([job]) => {
        if (!job) return;
        try {
          const data = JOBS[name].safeParse(job.data);
          if (!data.success) {
            log.error({ queue: name, job_id: job.id }, "job with invalid data dropped");
            return;
          }
          await handler(data.data as Parameters<JobHandler<N>>[0], {
            id: job.id,
            retryCount: (job as { retryCount?: number }).retryCount ?? 0,
            signal: job.signal,
          });
        } finally {
          boss.notifyWorker(self.id);
        }
      },
    );
    ids.push(self.id);
  }
  localWorkers.set(name, [...(localWorkers.get(name) ?? []), ...ids]);
  return async () => {
    localWorkers.set(
      name,
      (localWorkers.get(name) ?? []).filter((w) => !ids.includes(w)),
    );
    for (const id of ids) await boss.offWork(name, { id } as never).catch(() => {});
  };
}
