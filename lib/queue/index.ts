// The durable job queue: pg-boss on the same database as everything else (PGlite's instance in the
// embedded mode, PostgreSQL at scale). Jobs are enqueued in the same transaction as the rows they
// act on, so a committed trigger always has its job and a rolled-back one never does.
import { PgBoss, fromPglite, fromPrisma } from "pg-boss";
import { database } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { log } from "../log";

export const QUEUES = {
  /** Produce the assistant reply of one conversational message. */
  reply: "reply",
  /** Advance one workflow run. */
  run: "run",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const g = globalThis as unknown as { __awsBoss?: Promise<PgBoss> };

/** Seconds without a heartbeat after which a job of a dead worker is retried. */
export const heartbeatSeconds = () => Number(process.env.QUEUE_HEARTBEAT_SECONDS ?? 30);

async function createBoss(): Promise<PgBoss> {
  const db = await database();
  const common = {
    schedule: false,
    superviseIntervalSeconds: Number(process.env.QUEUE_SUPERVISE_SECONDS ?? 10),
  };
  const boss =
    db.kind === "pglite"
      ? new PgBoss({ ...common, db: fromPglite(db.pglite!), backend: "pglite" })
      : new PgBoss({ ...common, connectionString: db.connectionString!, max: 4, useListenNotify: true });
  boss.on("error", (err) => log.error({ err: { message: err.message } }, "queue error"));
  boss.on("warning", (w) => log.warn({ warning: String((w as { message?: string }).message ?? w) }, "queue warning"));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, {
      retryLimit: 5,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      expireInSeconds: 60 * 60,
      heartbeatSeconds: heartbeatSeconds(),
      notify: db.kind === "postgres",
    });
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
 * Enqueues a job; with `tx` the job commits or rolls back with the caller's Prisma transaction.
 * Local workers are woken at once instead of waiting for their next poll.
 */
export async function enqueue(name: QueueName, data: object, opts: { tx?: Prisma.TransactionClient; singletonKey?: string } = {}) {
  const boss = await queue();
  const id = await boss.send(name, data, {
    ...(opts.tx ? { db: fromPrisma(opts.tx as never) } : {}),
    ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
  });
  wakeLocalWorkers(name);
  return id;
}

const localWorkers = new Map<string, string[]>();

export function wakeLocalWorkers(name: string) {
  void queue().then((boss) => {
    for (const id of localWorkers.get(name) ?? []) boss.notifyWorker(id);
  });
}

export type JobHandler = (data: any, job: { id: string; retryCount: number; signal: AbortSignal }) => Promise<void>;

/** Registers a handler for a queue in this process. Returns a function that stops it. */
export async function work(name: QueueName, handler: JobHandler, concurrency = 4): Promise<() => Promise<void>> {
  const boss = await queue();
  const id = await boss.work(
    name,
    { localConcurrency: concurrency, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 },
    async ([job]) => {
      if (!job) return;
      await handler(job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0, signal: job.signal });
    },
  );
  localWorkers.set(name, [...(localWorkers.get(name) ?? []), id]);
  return async () => {
    localWorkers.set(name, (localWorkers.get(name) ?? []).filter((w) => w !== id));
    await boss.offWork(name, { id } as never).catch(() => {});
  };
}
