// The polling path's read of a run (GET run), one SQL statement for the polls that arrive together
// (lib/db/batch.ts): the record's columns (not the run's inputs and definition, which can be large),
// its output files and its audit trail. Raw SQL because run polling is among the API's most frequent
// requests: three Prisma queries cost several times the round trip's CPU (bench/profile.ts;
// docs/benchmarks.md). timestamp(3) columns hold UTC wall time: `AT TIME ZONE 'UTC'` reads them as
// instants whatever the client's zone, and `to_char(... 'MS')` keeps milliseconds inside JSON.
import { database } from "../db";
import { batcherPerDatabase } from "../db/batch";
import type { Prisma } from "../generated/prisma/client";
import type { OutputFileView, RunEventRow, RunView } from "./record";

const UTC_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The record of the run named by `runId`, `agentId`, `organizationId` (SQL expressions). */
const runRecord = (runId: string, agentId: string, organizationId: string) => `
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
FROM runs r WHERE r.id = ${runId} AND r.agent_id = ${agentId} AND r.organization_id = ${organizationId}`;

const RUN_RECORD = runRecord("$1", "$2", "$3");

/** The polls that arrive together, in one statement (lib/db/batch.ts): one row per run found. */
const RUN_RECORDS = `
SELECT q.i::int AS "batchIndex", v.*
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS q(run_id, agent_id, organization_id, i)
JOIN LATERAL (${runRecord("q.run_id", "q.agent_id", "q.organization_id")}) v ON true`;

interface Row extends RunView {
  outputFiles: (Omit<OutputFileView, "sizeBytes"> & { sizeBytes: string })[];
  events: (Omit<RunEventRow, "createdAt"> & { createdAt: string })[];
}

export interface RunRead {
  run: RunView;
  outputFiles: OutputFileView[];
  events: RunEventRow[];
}

interface RunRef {
  runId: string;
  agentId: string;
  organizationId: string;
}

const runReader = batcherPerDatabase(async (db, refs: RunRef[]) => {
  const rows = await db.sql.query<Row & { batchIndex: number }>(RUN_RECORDS, [
    refs.map((r) => r.runId),
    refs.map((r) => r.agentId),
    refs.map((r) => r.organizationId),
  ]);
  const found: (RunRead | undefined)[] = refs.map(() => undefined);
  for (const { batchIndex, ...row } of rows) found[Number(batchIndex) - 1] = fromRow(row);
  return found;
});

/** The run `runId` of the agent with what its record shows, or undefined. */
export async function readRun(opts: RunRef): Promise<RunRead | undefined> {
  return runReader(await database()).load(opts);
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
