// The polling path's read of a run (GET run), one SQL statement: the record's columns (not the
// run's inputs and definition, which can be large), its output files and its audit trail. Raw SQL
// because run polling is among the API's most frequent requests: three Prisma queries cost several
// times the round trip's CPU (bench/profile.ts; docs/benchmarks.md). timestamp(3) columns hold UTC
// wall time: `AT TIME ZONE 'UTC'` reads them as instants whatever the client's zone, and
// `to_char(... 'MS')` keeps milliseconds inside JSON.
import { database } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { OutputFileView, RunEventRow, RunView } from "./record";

const UTC_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const RUN_RECORD = `
SELECT r.id, r.agent_id AS "agentId", r.status, r.trigger_type AS "triggerType", r.error,
  r.total_processed AS "totalProcessed", r.successful, r.failed, r.exceptions, r.skipped,
  r.items_completed AS "itemsCompleted", r.items_failed AS "itemsFailed", r.items_needs_review AS "itemsReview",
  r.items_total AS "itemsTotal", r.agent_version AS "agentVersion",
  r.started_at AT TIME ZONE 'UTC' AS "startedAt", r.completed_at AT TIME ZONE 'UTC' AS "completedAt",
  (SELECT COALESCE(json_agg(json_build_object('filename', f.filename, 'contentType', f.content_type,
      'sizeBytes', f.size_bytes::text, 'storageKey', f.storage_key) ORDER BY f.created_at, f.id), '[]'::json)
   FROM output_files f WHERE f.run_id = r.id) AS "outputFiles",
  (SELECT COALESCE(json_agg(json_build_object('action', e.action, 'actorType', e.actor_type,
      'actorLabel', e.actor_label, 'data', e.data, 'createdAt', to_char(e.created_at, ${UTC_ISO}))
      ORDER BY e.created_at, e.id), '[]'::json)
   FROM audit_events e WHERE e.target_type = 'run' AND e.target_id = r.id) AS events
FROM runs r WHERE r.id = $1 AND r.agent_id = $2 AND r.organization_id = $3`;

interface Row extends RunView {
  outputFiles: (Omit<OutputFileView, "sizeBytes"> & { sizeBytes: string })[];
  events: (Omit<RunEventRow, "createdAt"> & { createdAt: string })[];
}

export interface RunRead {
  run: RunView;
  outputFiles: OutputFileView[];
  events: RunEventRow[];
}

/** The run `runId` of the agent with what its record shows, or undefined. */
export async function readRun(opts: {
  runId: string;
  agentId: string;
  organizationId: string;
}): Promise<RunRead | undefined> {
  const db = await database();
  const [row] = await db.sql.query<Row>(RUN_RECORD, [opts.runId, opts.agentId, opts.organizationId]);
  return fromRow(row);
}

/** readRun inside a transaction (a callback's payload, written with the move that causes it). */
export async function readRunIn(
  tx: Prisma.TransactionClient,
  opts: { runId: string; agentId: string; organizationId: string },
): Promise<RunRead | undefined> {
  const [row] = await tx.$queryRawUnsafe<Row[]>(RUN_RECORD, opts.runId, opts.agentId, opts.organizationId);
  return fromRow(row);
}

function fromRow(row: Row | undefined): RunRead | undefined {
  if (!row) return undefined;
  const { outputFiles, events, ...run } = row;
  return {
    run,
    outputFiles: outputFiles.map((f) => ({ ...f, sizeBytes: BigInt(f.sizeBytes) })),
    events: events.map((e) => ({ ...e, createdAt: new Date(e.createdAt) })),
  };
}
