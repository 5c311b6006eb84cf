// Retention: an organization's history older than its retention is deleted by the worker, in small
// batches (each a short statement on an index, oldest first), so that no sweep holds long locks
// and a sweep cut short by a restart simply continues next time. What is deleted: sessions with
// their messages (by last activity), finished runs with their items and output files (live runs,
// whatever their age, stay), files (and the uploads that made them), callback deliveries that are
// no longer pending, and audit rows. Stored bytes are removed after their rows: a crash in between
// leaves unreferenced bytes, never a row without its bytes. Each sweep that deleted anything writes
// one audit row per organization with the counts.
import { systemActor, audit } from "../audit";
import { database, prisma } from "../db";
import { env } from "../env";
import { log } from "../log";
import { processSlot } from "../process-state";
import { storage } from "../storage";

/** Rows per statement: small enough that each delete is a short transaction. */
const BATCH = 500;
/** Run items are deleted ahead of their run in chunks of this many (a run may hold a million). */
const ITEM_CHUNK = 5_000;
const DAY_MS = 86_400_000;
const cursor = processSlot<number>("retentionCursor");

export type RetentionCounts = Record<"sessions" | "runs" | "files" | "deliveries" | "audit_events", number>;

/** The organization's effective retention in days (0: forever): its own setting, else RETENTION_DAYS. */
export function effectiveRetentionDays(own: number | null): number {
  return own ?? env().RETENTION_DAYS;
}

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

/** One organization's expired history, oldest first, within the time budget. */
async function sweepOrganization(organizationId: string, cutoffDate: Date, until: number): Promise<RetentionCounts> {
  // timestamp(3) columns hold UTC wall time: compared with the instant's UTC text.
  const cutoff = cutoffDate.toISOString();
  const sessions = await drain(
    `DELETE FROM sessions WHERE id IN (
       SELECT id FROM sessions WHERE organization_id = $1 AND last_message_at < $2
       ORDER BY last_message_at LIMIT $3) RETURNING id`,
    [organizationId, cutoff],
    until,
  );

  // Finished runs: first the items of large ones in chunks, then the runs (cascading to what is
  // left: a few items, output files' rows), then the output files' bytes.
  let runs = 0;
  for (;;) {
    const batch = await query<{ id: string; items_total: number }>(
      `SELECT id, items_total FROM runs WHERE organization_id = $1 AND created_at < $2
         AND status IN ('completed', 'failed', 'cancelled')
       ORDER BY created_at LIMIT $3`,
      [organizationId, cutoff, BATCH],
    );
    if (!batch.length) break;
    for (const run of batch.filter((r) => r.items_total > ITEM_CHUNK)) {
      while (
        (
          await query<{ id: string }>(
            `DELETE FROM run_items WHERE id IN (SELECT id FROM run_items WHERE run_id = $1 LIMIT $2) RETURNING id`,
            [run.id, ITEM_CHUNK],
          )
        ).length === ITEM_CHUNK
      );
    }
    const ids = batch.map((r) => r.id);
    const keys = await query<{ storage_key: string }>(`SELECT storage_key FROM output_files WHERE run_id = ANY($1)`, [
      ids,
    ]);
    const deleted = await query<{ id: string }>(
      `DELETE FROM runs WHERE id = ANY($1) AND status IN ('completed', 'failed', 'cancelled') RETURNING id`,
      [ids],
    );
    runs += deleted.length;
    await removeStored(keys.map((k) => k.storage_key));
    if (batch.length < BATCH || Date.now() >= until) break;
  }

  const files = await drain<{ id: string; storage_key: string }>(
    `WITH gone AS (
       DELETE FROM files WHERE id IN (
         SELECT id FROM files WHERE organization_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3)
       RETURNING id, storage_key),
     uploads AS (DELETE FROM uploads WHERE file_id IN (SELECT id FROM gone))
     SELECT id, storage_key FROM gone`,
    [organizationId, cutoff],
    until,
    (rows) => removeStored(rows.map((r) => r.storage_key)),
  );

  const deliveries = await drain(
    `DELETE FROM callback_deliveries WHERE id IN (
       SELECT id FROM callback_deliveries WHERE organization_id = $1 AND created_at < $2 AND status <> 'pending'
       ORDER BY created_at LIMIT $3) RETURNING id`,
    [organizationId, cutoff],
    until,
  );

  const auditEvents = await drain(
    `DELETE FROM audit_events WHERE id IN (
       SELECT id FROM audit_events WHERE organization_id = $1 AND created_at < $2
       ORDER BY created_at LIMIT $3) RETURNING id`,
    [organizationId, cutoff],
    until,
  );
  return { sessions, runs, files, deliveries, audit_events: auditEvents };
}

/**
 * The worker's retention sweep: every organization whose effective retention is not forever, for at
 * most `budgetMs` (what is left is taken up by the next sweep). Answers the counts per organization
 * that had anything deleted.
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
    const cutoff = new Date(now.getTime() - org.retention_days * DAY_MS);
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

/** What an organization keeps: its retention and the date of its oldest kept record of each kind. */
export async function retentionOverview(organizationId: string) {
  const db = await prisma();
  const org = await db.organization.findUniqueOrThrow({ where: { id: organizationId } });
  const oldest = async (table: string, column: string) => {
    const [row] = await query<{ at: Date | string | null }>(
      `SELECT ${column} AT TIME ZONE 'UTC' AS at FROM ${table} WHERE organization_id = $1 ORDER BY ${column} LIMIT 1`,
      [organizationId],
    );
    return row?.at ? new Date(row.at).toISOString() : null;
  };
  const [sessions, runs, files, deliveries, auditEvents] = await Promise.all([
    oldest("sessions", "last_message_at"),
    oldest("runs", "created_at"),
    oldest("files", "created_at"),
    oldest("callback_deliveries", "created_at"),
    oldest("audit_events", "created_at"),
  ]);
  return {
    retention_days: org.retentionDays,
    effective_retention_days: effectiveRetentionDays(org.retentionDays),
    default_retention_days: env().RETENTION_DAYS,
    oldest: { sessions, runs, files, deliveries, audit_events: auditEvents },
  };
}
