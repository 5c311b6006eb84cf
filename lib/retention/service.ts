// Retention (docs/deploy.md "Data that grows", docs/api.md "Retention"): an organization's history
// older than its retention is deleted by the worker, in small batches (each a short statement on an
// index, oldest first), so that no sweep holds long locks and a sweep cut short by a restart simply
// continues next time. What is deleted: sessions with their messages (by last activity), finished
// runs with their items and output files (live runs, whatever their age, stay), files (and the
// uploads that made them), callback deliveries that are no longer pending, audit rows, and finished
// evaluations with their cases. A row
// whose delete would cascade to many (a session's messages, a run's items) loses those first, in
// chunks. Each delete checks its condition again on the row it deletes, so that a row that became
// young (a new message) or live (a retried run) meanwhile stays. Stored bytes are removed after
// their rows: a crash in between leaves unreferenced bytes, never a row without its bytes. Each
// sweep that deleted anything writes one audit row per organization with the counts; one process
// sweeps at a time (an advisory lock on PostgreSQL).
import { ApiError } from "../errors";
import { systemActor, audit, type Actor } from "../audit";
import { database, prisma } from "../db";
import { tryAdvisoryLock } from "../db/advisory-lock";
import { env } from "../env";
import { log } from "../log";
import { processSlot } from "../process-state";
import { storage } from "../storage";
import { PREVIEW_LIMIT, type RetentionKind, type RetentionSetting, type SetRetentionBody } from "./schemas";

/** Rows per statement: small enough that each delete is a short transaction. */
const BATCH = 500;
/**
 * Rows a statement may delete by cascade, at most: a session's messages, a run's items. A larger
 * session or run loses them first in chunks of this many; the others are deleted in groups whose
 * children add up to at most this many.
 */
const CASCADE_CHUNK = 5_000;
const DAY_MS = 86_400_000;
const cursor = processSlot<number>("retentionCursor");
const sweeping = processSlot<boolean>("retentionSweeping");
/** The advisory lock that lets one process of many sweep at a time (docs/deploy.md, Data that grows). */
const SWEEP_LOCK = "agent-webhook-service:retention-sweep";

export type RetentionCounts = Record<RetentionKind, number>;

/** The organization's effective retention in days (0: forever): its own setting, else RETENTION_DAYS. */
export function effectiveRetentionDays(own: number | null): number {
  return own ?? env().RETENTION_DAYS;
}

/** The instant before which a retention of `days` has records expire. */
const cutoffOf = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

async function query<T>(sql: string, params: unknown[]): Promise<T[]> {
  return (await database()).sql.query<T>(sql, params);
}

/** Deletes one batch of `sql` (which answers the deleted rows) until a batch is short or time is up. */
async function drain<T extends { id: string }>(
  sql: string,
  params: unknown[],
  until: number,
  after?: (rows: T[]) => Promise<void>,
) {
  let total = 0;
  for (;;) {
    const rows = await query<T>(sql, [...params, BATCH]);
    total += rows.length;
    if (after && rows.length) await after(rows);
    if (rows.length < BATCH || Date.now() >= until) return total;
  }
}

const removeStored = async (keys: string[]) => {
  for (const key of keys) {
    await storage()
      .remove(key)
      .catch((err) => log.warn({ err: { message: (err as Error).message } }, "retention: stored bytes not removed"));
  }
};

/** Splits a batch, in order, into groups whose children add up to at most CASCADE_CHUNK (one row at least). */
function groupsOf(rows: { id: string; children: number }[]): string[][] {
  const groups: string[][] = [];
  let sum = Infinity;
  for (const row of rows) {
    const n = Math.min(row.children, CASCADE_CHUNK);
    if (sum + n > CASCADE_CHUNK) {
      groups.push([]);
      sum = 0;
    }
    groups.at(-1)!.push(row.id);
    sum += n;
  }
  return groups;
}

/**
 * Expired parents (sessions, runs), oldest first: `select` answers a batch (`id`, `children`);
 * `trim` deletes a chunk of a large parent's children ($1 the parent, $2 the chunk, then `params`
 * after the organization); `remove` deletes a group ($1 the ids, then the same), each row checked
 * again, answering the rows it deleted (`id`) with the stored bytes they held (`storage_key`).
 */
async function drainParents(p: {
  select: string;
  trim: string;
  remove: string;
  params: unknown[];
  until: number;
}): Promise<number> {
  const [, ...rest] = p.params;
  let total = 0;
  for (;;) {
    const batch = await query<{ id: string; children: number }>(p.select, [...p.params, BATCH]);
    for (const row of batch.filter((r) => r.children > CASCADE_CHUNK)) {
      while ((await query(p.trim, [row.id, CASCADE_CHUNK, ...rest])).length === CASCADE_CHUNK);
    }
    for (const ids of groupsOf(batch)) {
      const gone = await query<{ id: string; storage_key?: string | null }>(p.remove, [ids, ...rest]);
      total += new Set(gone.map((r) => r.id)).size;
      await removeStored(gone.flatMap((r) => (r.storage_key ? [r.storage_key] : [])));
    }
    if (batch.length < BATCH || Date.now() >= p.until) return total;
  }
}

const FINISHED = `('completed', 'failed', 'cancelled')`;
const EVALUATION_FINISHED = `('completed', 'cancelled', 'stopped', 'failed')`;

/** One organization's expired history, oldest first, within the time budget. */
async function sweepOrganization(organizationId: string, cutoffDate: Date, until: number): Promise<RetentionCounts> {
  // timestamp(3) columns hold UTC wall time: compared with the instant's UTC text.
  const cutoff = cutoffDate.toISOString();
  const params = [organizationId, cutoff];
  const sessions = await drainParents({
    select: `SELECT id, message_count AS children FROM sessions WHERE organization_id = $1 AND last_message_at < $2
             ORDER BY last_message_at LIMIT $3`,
    trim: `DELETE FROM messages WHERE id IN (
             SELECT id FROM messages WHERE session_id = $1 AND created_at < $3 ORDER BY created_at LIMIT $2)
           AND EXISTS (SELECT 1 FROM sessions WHERE id = $1 AND last_message_at < $3) RETURNING id`,
    remove: `DELETE FROM sessions WHERE id = ANY($1) AND last_message_at < $2 RETURNING id`,
    params,
    until,
  });

  // Finished runs: the items of large ones first, then the runs (cascading to their few items and
  // output files' rows), then the output files' bytes of the runs deleted.
  const runs = await drainParents({
    select: `SELECT id, items_total AS children FROM runs WHERE organization_id = $1 AND created_at < $2
               AND status IN ${FINISHED}
             ORDER BY created_at LIMIT $3`,
    trim: `DELETE FROM run_items WHERE id IN (SELECT id FROM run_items WHERE run_id = $1 LIMIT $2)
           AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND created_at < $3 AND status IN ${FINISHED}) RETURNING id`,
    // The output files' rows as they were before the statement (its one snapshot), cascade or not.
    remove: `WITH gone AS (
               DELETE FROM runs WHERE id = ANY($1) AND created_at < $2 AND status IN ${FINISHED} RETURNING id)
             SELECT gone.id, o.storage_key FROM gone LEFT JOIN output_files o ON o.run_id = gone.id`,
    params,
    until,
  });

  const uploads = await drain<{ id: string; storage_key: string }>(
    `WITH gone AS (
       DELETE FROM files WHERE id IN (
         SELECT id FROM files WHERE organization_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3)
       RETURNING id, storage_key),
     uploads AS (DELETE FROM uploads WHERE file_id IN (SELECT id FROM gone))
     SELECT id, storage_key FROM gone`,
    params,
    until,
    (rows) => removeStored(rows.map((r) => r.storage_key)),
  );

  // A redelivery makes a settled delivery pending again: the delete checks its status again.
  const deliveries = await drain(
    `DELETE FROM callback_deliveries WHERE id IN (
       SELECT id FROM callback_deliveries WHERE organization_id = $1 AND created_at < $2 AND status <> 'pending'
       ORDER BY created_at LIMIT $3) AND status <> 'pending' RETURNING id`,
    params,
    until,
  );

  const auditEvents = await drain(
    `DELETE FROM audit_events WHERE id IN (
       SELECT id FROM audit_events WHERE organization_id = $1 AND created_at < $2
       ORDER BY created_at LIMIT $3) RETURNING id`,
    params,
    until,
  );

  // Finished evaluations with their cases (replayed replies and items: lib/evaluations).
  const evaluations = await drainParents({
    select: `SELECT id, cases_total AS children FROM evaluations
             WHERE organization_id = $1 AND created_at < $2 AND status IN ${EVALUATION_FINISHED}
             ORDER BY created_at LIMIT $3`,
    trim: `DELETE FROM evaluation_cases WHERE id IN (SELECT id FROM evaluation_cases WHERE evaluation_id = $1 LIMIT $2)
           AND EXISTS (SELECT 1 FROM evaluations WHERE id = $1 AND created_at < $3) RETURNING id`,
    remove: `DELETE FROM evaluations WHERE id = ANY($1) AND created_at < $2 AND status IN ${EVALUATION_FINISHED} RETURNING id`,
    params,
    until,
  });
  return { sessions, runs, uploads, deliveries, audit: auditEvents, evaluations };
}

/**
 * The retention sweep: every organization whose effective retention is not forever, for at most
 * `budgetMs` (what is left is taken up by the next sweep). Answers the counts per organization that
 * had anything deleted.
 */
export async function sweepRetention(
  opts: { now?: Date; budgetMs?: number } = {},
): Promise<Map<string, RetentionCounts>> {
  const now = opts.now ?? new Date();
  const until = Date.now() + (opts.budgetMs ?? 60_000);
  const organizations = await query<{ id: string; retention_days: number }>(
    `SELECT id, coalesce(retention_days, $1)::int AS retention_days FROM organizations
     WHERE coalesce(retention_days, $1) > 0 ORDER BY id`,
    [env().RETENTION_DAYS],
  );
  const swept = new Map<string, RetentionCounts>();
  // Each sweep starts one organization further, so that a budget spent on a large history does
  // not keep the organizations after it waiting; each organization visited gets at least a batch.
  const start = (cursor.get() ?? 0) % Math.max(1, organizations.length);
  cursor.set(start + 1);
  for (const org of [...organizations.slice(start), ...organizations.slice(0, start)]) {
    const cutoff = cutoffOf(now, org.retention_days);
    const counts = await sweepOrganization(org.id, cutoff, until);
    if (Object.values(counts).some((n) => n > 0)) {
      swept.set(org.id, counts);
      await audit({
        organizationId: org.id,
        actor: systemActor("retention"),
        action: "retention.swept",
        targetType: "organization",
        targetId: org.id,
        data: { retention_days: org.retention_days, before: cutoff.toISOString(), deleted: counts },
      });
      log.info({ organization_id: org.id, deleted: counts }, "retention: expired history deleted");
    }
    if (Date.now() >= until) break;
  }
  return swept;
}

/**
 * The worker's turn of the sweep (lib/worker/periodic.ts): on PostgreSQL only the process that holds
 * the sweep's advisory lock sweeps, the others skip this turn (answer null); a process never runs
 * two sweeps at once. The embedded database has one process: it just sweeps.
 */
export async function sweepRetentionExclusively(
  opts: { now?: Date; budgetMs?: number } = {},
): Promise<Map<string, RetentionCounts> | null> {
  if (sweeping.get()) return null;
  sweeping.set(true);
  try {
    const db = await database();
    if (db.kind !== "postgres") return await sweepRetention(opts);
    const lock = await tryAdvisoryLock(db.connectionString!, SWEEP_LOCK);
    if (!lock) {
      log.debug("retention: another process is sweeping");
      return null;
    }
    try {
      return await sweepRetention(opts);
    } finally {
      await lock.release();
    }
  } finally {
    sweeping.set(false);
  }
}

/**
 * How many records of each kind a retention of `days` would have the next sweep delete, each counted
 * up to PREVIEW_LIMIT + 1 (a bounded read of an index, whatever the history's size). The conditions
 * are the sweep's.
 */
async function previewRetention(organizationId: string, days: number, now: Date) {
  const none = { sessions: 0, runs: 0, uploads: 0, deliveries: 0, audit: 0, evaluations: 0 };
  if (days === 0) return { retention_days: 0, cutoff: null, counts: none };
  const cutoff = cutoffOf(now, days).toISOString();
  const upTo = (from: string) => `(SELECT count(*)::int FROM (SELECT 1 FROM ${from} LIMIT $3) AS t)`;
  const [counts] = await query<RetentionCounts>(
    `SELECT
       ${upTo("sessions WHERE organization_id = $1 AND last_message_at < $2")} AS sessions,
       ${upTo(`runs WHERE organization_id = $1 AND created_at < $2 AND status IN ${FINISHED}`)} AS runs,
       ${upTo("files WHERE organization_id = $1 AND created_at < $2")} AS uploads,
       ${upTo("callback_deliveries WHERE organization_id = $1 AND created_at < $2 AND status <> 'pending'")} AS deliveries,
       ${upTo("audit_events WHERE organization_id = $1 AND created_at < $2")} AS audit,
       ${upTo(`evaluations WHERE organization_id = $1 AND created_at < $2 AND status IN ${EVALUATION_FINISHED}`)} AS evaluations`,
    [organizationId, cutoff, PREVIEW_LIMIT + 1],
  );
  return { retention_days: days, cutoff, counts: counts ?? none };
}

/**
 * The organization's retention: its setting, the default, what applies, the date of its oldest kept
 * record of each kind and, with `previewDays`, what a retention of that many days would delete.
 */
export async function retentionSetting(opts: {
  organizationId: string;
  previewDays?: number;
  now?: Date;
}): Promise<RetentionSetting> {
  const { organizationId } = opts;
  const db = await prisma();
  const org = await db.organization.findUnique({ where: { id: organizationId } });
  if (!org) throw new ApiError("organization_not_found", "Organization not found.");
  const oldest = async (table: string, column: string) => {
    const [row] = await query<{ at: Date | string | null }>(
      `SELECT ${column} AT TIME ZONE 'UTC' AS at FROM ${table} WHERE organization_id = $1 ORDER BY ${column} LIMIT 1`,
      [organizationId],
    );
    return row?.at ? new Date(row.at).toISOString() : null;
  };
  const [sessions, runs, uploads, deliveries, auditEvents, evaluations] = await Promise.all([
    oldest("sessions", "last_message_at"),
    oldest("runs", "created_at"),
    oldest("files", "created_at"),
    oldest("callback_deliveries", "created_at"),
    oldest("audit_events", "created_at"),
    oldest("evaluations", "created_at"),
  ]);
  return {
    retention_days: org.retentionDays,
    default_retention_days: env().RETENTION_DAYS,
    effective_days: effectiveRetentionDays(org.retentionDays),
    oldest: { sessions, runs, uploads, deliveries, audit: auditEvents, evaluations },
    ...(opts.previewDays !== undefined
      ? { preview: await previewRetention(organizationId, opts.previewDays, opts.now ?? new Date()) }
      : {}),
  };
}

/**
 * Sets the organization's retention (null: follow the default, 0: keep forever); a change is
 * audited with the value before and after. The next sweep applies it.
 */
export async function setRetention(opts: {
  organizationId: string;
  input: SetRetentionBody;
  actor: Actor;
}): Promise<RetentionSetting> {
  const { organizationId, input, actor } = opts;
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ retention_days: number | null }[]>`
      SELECT retention_days FROM organizations WHERE id = ${organizationId} FOR UPDATE`;
    if (!row) throw new ApiError("organization_not_found", "Organization not found.");
    if (row.retention_days === input.retention_days) return;
    await tx.organization.update({ where: { id: organizationId }, data: { retentionDays: input.retention_days } });
    await audit({
      tx,
      organizationId,
      actor,
      action: "retention.updated",
      targetType: "organization",
      targetId: organizationId,
      data: { before: row.retention_days, after: input.retention_days },
    });
  });
  return retentionSetting({ organizationId });
}
