// Everything this service reads or writes in pg-boss's own tables, in one place: they are pg-boss
// 10's (schema version 24; pg-boss is pinned to an exact version in package.json, and
// lib/queue/queue.test.ts checks the version it installs).
//
// pg-boss 10 knows one deadline per job, `started_on + expire_in`: its supervisor fails an active
// job past it (into `retry` while attempts remain, else `failed`). This service uses it as a
// heartbeat: a queue's `expire_in` is QUEUE_HEARTBEAT_SECONDS, and the worker running a job moves
// the job's `started_on` to now every half of it, so the job of a dead worker is retried about a
// heartbeat after the death while a long job that is still beating runs on. A worker holds one
// attempt of a job, its claim: the job id and the retry count it was fetched with; completing,
// failing and beating all check the claim, so an attempt that lost its job (the supervisor took it
// while the worker was stalled) cannot settle the next attempt of the same job.
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { prismaDb, type QueueDb } from "./adapters";

/** pg-boss's schema in the service's database (pg-boss's default name). */
export const QUEUE_SCHEMA = "pgboss";
/** The schema version the installed pg-boss creates (node_modules/pg-boss/version.json). */
export const PG_BOSS_SCHEMA_VERSION = 24;
/** Longest wait before a retry: exponential backoff stops growing here. */
export const RETRY_DELAY_MAX_SECONDS = 60;

const JOB = `${QUEUE_SCHEMA}.job`;
const CLAIMED = `name = $1 AND id = $2 AND state = 'active' AND retry_count = $3`;

/** One attempt of a job, as the worker running it holds it. */
export interface Claim {
  name: string;
  id: string;
  retryCount: number;
}

const claimParams = (c: Claim) => [c.name, c.id, c.retryCount];

/** The heartbeat. False when the claim is gone: the handler's work can no longer settle the job. */
export async function beat(db: QueueDb, claim: Claim): Promise<boolean> {
  const { rows } = await db.executeSql(
    `UPDATE ${JOB} SET started_on = now() WHERE ${CLAIMED} RETURNING id`,
    claimParams(claim),
  );
  return rows.length === 1;
}

/** Marks the attempt's job completed; false (and nothing changed) when the claim is gone. */
export async function completeClaim(db: QueueDb, claim: Claim): Promise<boolean> {
  const { rows } = await db.executeSql(
    `UPDATE ${JOB} SET state = 'completed', completed_on = now() WHERE ${CLAIMED} RETURNING id`,
    claimParams(claim),
  );
  return rows.length === 1;
}

/** Retry delay of a failed attempt: the queue's exponential backoff (as pg-boss computes it), capped. */
const RETRY_DELAY = `LEAST(${RETRY_DELAY_MAX_SECONDS}, CASE WHEN retry_backoff
  THEN retry_delay * 2 ^ LEAST(16, retry_count + 1) / 2 * (1 + random())
  ELSE retry_delay END) * interval '1 second'`;

/**
 * Fails the attempt: the job waits for its retry while attempts remain, else it has failed for
 * good. Returns the job's new state, or null (nothing changed) when the claim is gone.
 */
export async function failClaim(
  db: QueueDb,
  claim: Claim,
  error: { name: string; message: string },
): Promise<"retry" | "failed" | null> {
  const { rows } = await db.executeSql(
    `UPDATE ${JOB} SET
       state = (CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END)::${QUEUE_SCHEMA}.job_state,
       start_after = CASE WHEN retry_count < retry_limit THEN now() + ${RETRY_DELAY} ELSE start_after END,
       completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
       output = $4::jsonb
     WHERE ${CLAIMED} RETURNING state::text AS state`,
    [...claimParams(claim), error],
  );
  return (rows[0]?.state as "retry" | "failed" | undefined) ?? null;
}

/**
 * The supervisor retries the job of a dead worker with pg-boss's own backoff, which has no cap:
 * bring such retries back within the cap (the worker's upkeep runs this every supervision).
 */
export async function capRetryDelays(db: QueueDb, name: string): Promise<void> {
  await db.executeSql(
    `UPDATE ${JOB} SET start_after = now() + interval '${RETRY_DELAY_MAX_SECONDS} seconds'
     WHERE name = $1 AND state = 'retry' AND start_after > now() + interval '${RETRY_DELAY_MAX_SECONDS} seconds'`,
    [name],
  );
}

/**
 * An index of pg-boss's job table that pg-boss 10 does not make: its jobs that are not finished,
 * by queue and state. `liveJobExists` and the queue gauges of /api/metrics read only those, while
 * the table also keeps a queue's finished jobs until pg-boss archives them (12 hours), which those
 * reads would otherwise wade through (docs/benchmarks.md, Figures behind code comments). Created once, under a lock (several
 * processes start together); pg-boss's later queue partitions get it when they are attached.
 */
export async function ensureLiveJobIndex(db: QueueDb): Promise<void> {
  await db.executeSql(`BEGIN;
    SELECT pg_advisory_xact_lock(hashtext('agent-webhook-service:pgboss-live-index'));
    CREATE INDEX IF NOT EXISTS job_live_i ON ${JOB} (name, state) WHERE state < 'completed';
    CREATE INDEX IF NOT EXISTS job_live_org_i ON ${JOB} (name, (data->>'organizationId'), priority) WHERE state < 'completed';
    COMMIT;`);
}

/**
 * The fair-queuing tag of a new job whose data `field` is `value` (start-time fair queuing): one
 * after the value's last live job, and never before the virtual time (the highest tag running).
 * Jobs are fetched by tag (pg-boss `priority` = -tag, then age): each value's jobs keep their
 * order, busy values take turns, and a value with no backlog starts next. Live jobs only.
 */
export async function fairTag(db: QueueDb, name: string, field: string, value: string): Promise<number> {
  const { rows } = await db.executeSql(
    `SELECT
       COALESCE((SELECT max(-priority) FROM ${JOB} WHERE name = $1 AND state = 'active'), 0) AS now,
       COALESCE((SELECT max(-priority) FROM ${JOB} WHERE name = $1 AND state < 'completed' AND data->>$2 = $3), -1) AS last`,
    [name, field, value],
  );
  return Math.max(Number(rows[0]?.now ?? 0), Number(rows[0]?.last ?? -1) + 1);
}

/**
 * Fair share of a queue's workers between the values of a data field (organizations): whether a job
 * of another value has been ready for at least `waitedSeconds` without a worker taking it (so every
 * slot is busy), and how many of this value's running jobs were created before the job `jobId`.
 * Reads only jobs that are not finished (job_live_i, pg-boss's job_i5).
 */
export async function shareOfQueue(
  db: QueueDb,
  opts: { name: string; field: string; value: string; jobId: string; waitedSeconds: number },
): Promise<{ othersWaiting: boolean; ahead: number }> {
  const { rows } = await db.executeSql(
    `SELECT
       EXISTS (SELECT 1 FROM ${JOB} w
               WHERE w.name = $1 AND w.state < 'active' AND w.start_after < now() - make_interval(secs => $5)
                 AND w.data->>$2 IS DISTINCT FROM $3) AS "othersWaiting",
       (SELECT count(*)::int FROM ${JOB} a, ${JOB} me
        WHERE me.name = $1 AND me.id = $4::uuid AND a.name = $1 AND a.state = 'active' AND a.data->>$2 = $3
          AND (a.created_on, a.id) < (me.created_on, me.id)) AS ahead`,
    [opts.name, opts.field, opts.value, opts.jobId, opts.waitedSeconds],
  );
  const row = rows[0] ?? {};
  return { othersWaiting: row.othersWaiting === true, ahead: Number(row.ahead ?? 0) };
}

/**
 * SQL condition: the queue `name` holds a job that will still run whose data's `field` equals
 * `value` (a column of the caller's query): `created` (waiting, perhaps behind others), `retry`
 * (waiting for its retry), or `active` unless it is on its last attempt and its worker is gone
 * (the heartbeat lapsed): the supervisor fails such a job only at its next pass, and nothing will
 * run it again. A job that completed, was cancelled, or failed for good is not live either.
 */
export function liveJobExists(name: string, field: string, value: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (
    SELECT 1 FROM ${Prisma.raw(JOB)} j
    WHERE j.name = ${name} AND j.data->>${field} = ${value}
      AND (j.state IN ('created', 'retry')
        OR (j.state = 'active' AND (j.retry_count < j.retry_limit OR j.started_on + j.expire_in >= now()))))`;
}

const CARRYOVER = "pgboss_carryover";
const CARRYOVER_LOCK = `SELECT pg_advisory_xact_lock(hashtext('agent-webhook-service:pgboss-carryover'))`;
const TX = { maxWait: 60_000, timeout: 60_000 };

/**
 * Before pg-boss starts. A `pgboss` schema installed by a newer pg-boss (this service ran pg-boss 12,
 * schema 46, before it pinned a release that supports Node 20) would be left alone by pg-boss 10,
 * whose statements then fail on its tables. Its jobs that would still run are copied aside and the
 * schema is dropped, so that pg-boss installs its own; `resendCarriedOverJobs` enqueues the copies
 * once it has. In one transaction, under a lock: concurrent starts do it once. Returns the number
 * of jobs copied, or null when there was nothing to do.
 */
export async function setAsideNewerSchema(prisma: PrismaClient): Promise<{ version: number; jobs: number } | null> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(CARRYOVER_LOCK);
    const [found] = await tx.$queryRawUnsafe<{ present: boolean }[]>(
      `SELECT to_regclass('${QUEUE_SCHEMA}.version') IS NOT NULL AS present`,
    );
    if (!found?.present) return null;
    const [installed] = await tx.$queryRawUnsafe<{ version: number | null }[]>(
      `SELECT max(version)::int AS version FROM ${QUEUE_SCHEMA}.version`,
    );
    const version = installed?.version ?? 0;
    if (version <= PG_BOSS_SCHEMA_VERSION) return null;
    await tx.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS ${CARRYOVER}`);
    await tx.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS ${CARRYOVER}.job (name text NOT NULL, data jsonb)`);
    const jobs = await tx.$executeRawUnsafe(
      `INSERT INTO ${CARRYOVER}.job (name, data)
       SELECT name, data FROM ${JOB} WHERE state::text IN ('created', 'retry', 'active')`,
    );
    await tx.$executeRawUnsafe(`DROP SCHEMA ${QUEUE_SCHEMA} CASCADE`);
    return { version, jobs };
  }, TX);
}

/**
 * After pg-boss started: enqueues again, in one transaction with dropping them, the jobs
 * `setAsideNewerSchema` copied (those of the queues in `names`; jobs are idempotent, so an attempt
 * that was active when the old schema was set aside simply runs again). Returns how many.
 */
export async function resendCarriedOverJobs(
  prisma: PrismaClient,
  names: readonly string[],
  send: (db: QueueDb, name: string, data: object) => Promise<unknown>,
): Promise<number> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(CARRYOVER_LOCK);
    const [found] = await tx.$queryRawUnsafe<{ present: boolean }[]>(
      `SELECT to_regclass('${CARRYOVER}.job') IS NOT NULL AS present`,
    );
    if (!found?.present) return 0;
    const rows = await tx.$queryRawUnsafe<{ name: string; data: object | null }[]>(
      `SELECT name, data FROM ${CARRYOVER}.job`,
    );
    const db = prismaDb(tx);
    let sent = 0;
    for (const row of rows) {
      if (!names.includes(row.name)) continue;
      await send(db, row.name, row.data ?? {});
      sent++;
    }
    await tx.$executeRawUnsafe(`DROP SCHEMA ${CARRYOVER} CASCADE`);
    return sent;
  }, TX);
}
