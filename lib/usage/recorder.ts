// Recording usage as work happens (docs/api.md, Usage; docs/decisions.md, Usage rollups). The
// trigger path is the hot path: each event is added up in memory, per organization, agent, key and
// hour, and a process flushes what it holds in one upsert statement every second (or at once after
// FLUSH_EVENTS events), and on a clean shutdown (lib/boot.ts, scripts/worker.ts). A crash loses at
// most the last second of this process's counts; the base tables are untouched, and the backfill
// (./backfill.ts) recomputes the rollups from them. Run ends, which happen in a transaction anyway,
// are added in that transaction (`addUsageIn`).
import { prisma } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { log } from "../log";
import { processOnce } from "../process-state";
import { addBuckets, latencyBucket, LATENCY_BUCKETS } from "./histogram";

/** One event's figures (absent ones are 0); `latencyMs` adds one reply to the latency histogram. */
export interface UsageEvent {
  organizationId: string;
  agentId: string;
  /** The Access Key the work came through; absent: none known (''). */
  keyId?: string | null;
  at?: Date;
  triggers?: number;
  repliesCompleted?: number;
  repliesFailed?: number;
  runsStarted?: number;
  runsCompleted?: number;
  runsFailed?: number;
  runsCancelled?: number;
  runsNeedsReview?: number;
  promptTokens?: number;
  completionTokens?: number;
  cost?: number;
  latencyMs?: number;
  uploads?: number;
  uploadBytes?: number;
  /** Evaluation usage (lib/evaluations): counted apart, never in the figures above. */
  evaluationCases?: number;
  evaluationTokens?: number;
  evaluationCost?: number;
  /**
   * The agent version the work was done by, given while the agent has a canary rollout: the event is
   * then also added to that version's minute (version_usage_minutely), which the rollout's figures
   * and guard rules read.
   */
  agentVersion?: number;
}

const COUNTERS = [
  ["triggers", "triggers"],
  ["repliesCompleted", "replies_completed"],
  ["repliesFailed", "replies_failed"],
  ["runsStarted", "runs_started"],
  ["runsCompleted", "runs_completed"],
  ["runsFailed", "runs_failed"],
  ["runsCancelled", "runs_cancelled"],
  ["runsNeedsReview", "runs_needs_review"],
  ["promptTokens", "prompt_tokens"],
  ["completionTokens", "completion_tokens"],
  ["cost", "cost"],
  ["latencyMsSum", "latency_ms_sum"],
  ["uploads", "uploads"],
  ["uploadBytes", "upload_bytes"],
  ["evaluationCases", "evaluation_cases"],
  ["evaluationTokens", "evaluation_tokens"],
  ["evaluationCost", "evaluation_cost"],
] as const;
type Counter = (typeof COUNTERS)[number][0];

interface Row extends Record<Counter, number> {
  organizationId: string;
  agentId: string;
  keyId: string;
  hour: string;
  buckets: number[];
}

/** After this many events a flush starts at once, without waiting for the second. */
const FLUSH_EVENTS = 1_000;
const FLUSH_MS = 1_000;
/** Rows per statement (each takes 22 parameters). */
const CHUNK = 500;

/** The counters of version_usage_minutely: a subset of usage_hourly's. */
const VERSION_COUNTERS = COUNTERS.filter(([field]) =>
  [
    "triggers",
    "repliesCompleted",
    "repliesFailed",
    "runsStarted",
    "runsCompleted",
    "runsFailed",
    "promptTokens",
    "completionTokens",
    "cost",
    "latencyMsSum",
  ].includes(field),
);

interface RecorderState {
  pending: Map<string, Row>;
  /** Per agent version and minute (`hour` holds the minute). */
  pendingVersions: Map<string, Row & { agentVersion: number }>;
  events: number;
  timer?: NodeJS.Timeout;
  flushing: Promise<void>;
}

const state = processOnce<RecorderState>("usage-recorder", () => ({
  pending: new Map(),
  pendingVersions: new Map(),
  events: 0,
  flushing: Promise.resolve(),
}));

/** The start of the UTC hour of `at`, as the ISO text a timestamp(3) column is written with. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();

function toRow(e: UsageEvent): Row {
  const latency = e.latencyMs === undefined ? undefined : Math.max(0, Math.round(e.latencyMs));
  const buckets = new Array<number>(LATENCY_BUCKETS).fill(0);
  if (latency !== undefined) buckets[latencyBucket(latency)] = 1;
  return {
    organizationId: e.organizationId,
    agentId: e.agentId,
    keyId: e.keyId ?? "",
    hour: hourOf(e.at ?? new Date()),
    triggers: e.triggers ?? 0,
    repliesCompleted: e.repliesCompleted ?? 0,
    repliesFailed: e.repliesFailed ?? 0,
    runsStarted: e.runsStarted ?? 0,
    runsCompleted: e.runsCompleted ?? 0,
    runsFailed: e.runsFailed ?? 0,
    runsCancelled: e.runsCancelled ?? 0,
    runsNeedsReview: e.runsNeedsReview ?? 0,
    promptTokens: e.promptTokens ?? 0,
    completionTokens: e.completionTokens ?? 0,
    cost: e.cost ?? 0,
    latencyMsSum: latency ?? 0,
    uploads: e.uploads ?? 0,
    uploadBytes: e.uploadBytes ?? 0,
    evaluationCases: e.evaluationCases ?? 0,
    evaluationTokens: e.evaluationTokens ?? 0,
    evaluationCost: e.evaluationCost ?? 0,
    buckets,
  };
}

/** The start of the UTC minute of `at`, as the ISO text a timestamp(3) column is written with. */
export const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();

const rowKey = (r: Row) => `${r.organizationId}\u0000${r.agentId}\u0000${r.keyId}\u0000${r.hour}`;

type VersionRow = Row & { agentVersion: number };

/** The event's row of its version's minute (`hour` holds the minute), or null when it names no version. */
function toVersionRow(e: UsageEvent, row: Row): VersionRow | null {
  if (e.agentVersion === undefined) return null;
  return {
    ...row,
    buckets: [...row.buckets],
    keyId: "",
    hour: minuteOf(e.at ?? new Date()),
    agentVersion: e.agentVersion,
  };
}

function merge<R extends Row>(into: Map<string, R>, row: R, key = rowKey(row)) {
  const had = into.get(key);
  if (!had) {
    into.set(key, row);
    return;
  }
  for (const [field] of COUNTERS) had[field] += row[field];
  had.buckets = addBuckets(had.buckets, row.buckets);
}

/** Adds an event to this process's pending counts; they reach the database within about a second. */
export function recordUsage(event: UsageEvent): void {
  const row = toRow(event);
  const versionRow = toVersionRow(event, row);
  merge(state.pending, row);
  if (versionRow) merge(state.pendingVersions, versionRow, versionKey(versionRow));
  state.events++;
  if (!state.timer) {
    state.timer = setInterval(() => void flushUsage(), FLUSH_MS);
    state.timer.unref?.();
  }
  if (state.events >= FLUSH_EVENTS) void flushUsage();
}

/** Dollars are fractions; every other counter is a whole number. */
const FLOAT_COUNTERS = new Set<string>(["cost", "evaluation_cost"]);
const valueSql = (column: string, value: number) =>
  FLOAT_COUNTERS.has(column) ? P.sql`${value}::float8` : P.sql`${value}::bigint`;

const upsert = (rows: Row[]) => P.sql`
INSERT INTO usage_hourly (organization_id, agent_id, key_id, hour, ${P.raw(COUNTERS.map(([, c]) => c).join(", "))}, latency_buckets)
VALUES ${P.join(
  rows.map(
    (r) =>
      P.sql`(${r.organizationId}, ${r.agentId}, ${r.keyId}, ${r.hour}::timestamp(3), ${P.join(
        COUNTERS.map(([field, column]) => valueSql(column, r[field])),
      )}, ${`{${r.buckets.join(",")}}`}::int[])`,
  ),
)}
ON CONFLICT (organization_id, agent_id, key_id, hour) DO UPDATE SET
  ${P.raw(COUNTERS.map(([, c]) => `${c} = usage_hourly.${c} + excluded.${c}`).join(", "))},
  latency_buckets = usage_add_buckets(usage_hourly.latency_buckets, excluded.latency_buckets)`;

const versionKey = (r: VersionRow) => `${r.agentId}\u0000${r.agentVersion}\u0000${r.hour}`;

const upsertVersions = (rows: VersionRow[]) => P.sql`
INSERT INTO version_usage_minutely (organization_id, agent_id, agent_version, minute, ${P.raw(VERSION_COUNTERS.map(([, c]) => c).join(", "))}, latency_buckets)
VALUES ${P.join(
  rows.map(
    (r) =>
      P.sql`(${r.organizationId}, ${r.agentId}, ${r.agentVersion}::int, ${r.hour}::timestamp(3), ${P.join(
        VERSION_COUNTERS.map(([field, column]) => valueSql(column, r[field])),
      )}, ${`{${r.buckets.join(",")}}`}::int[])`,
  ),
)}
ON CONFLICT (agent_id, agent_version, minute) DO UPDATE SET
  ${P.raw(VERSION_COUNTERS.map(([, c]) => `${c} = version_usage_minutely.${c} + excluded.${c}`).join(", "))},
  latency_buckets = usage_add_buckets(version_usage_minutely.latency_buckets, excluded.latency_buckets)`;

/** Writes `rows` in statements of CHUNK rows; the counts of a failed statement go back to `pending`. */
async function writeRows<R extends Row>(
  rows: R[],
  statement: (chunk: R[]) => ReturnType<typeof upsert>,
  pending: () => Map<string, R>,
  key: (r: R) => string,
) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    try {
      const db = await prisma();
      await db.$executeRaw(statement(chunk));
    } catch (err) {
      for (const row of chunk) merge(pending(), row, key(row));
      log.warn(
        { err: { message: (err as Error).message }, rows: chunk.length },
        "usage flush failed; kept for the next",
      );
    }
  }
}

/**
 * Writes what this process holds, in one statement per CHUNK rows; a failed write puts its counts
 * back for the next flush. Flushes run one after another.
 */
export function flushUsage(): Promise<void> {
  state.flushing = state.flushing.then(async () => {
    if (state.pending.size === 0 && state.pendingVersions.size === 0) return;
    const rows = [...state.pending.values()];
    const versionRows = [...state.pendingVersions.values()];
    state.pending = new Map();
    state.pendingVersions = new Map();
    state.events = 0;
    await writeRows(rows, upsert, () => state.pending, rowKey);
    await writeRows(versionRows, upsertVersions, () => state.pendingVersions, versionKey);
  });
  return state.flushing;
}

/** Flushes and stops the timer: the last step of a clean shutdown before the database closes. */
export async function stopUsageRecorder(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
  await flushUsage();
}

/** Adds an event inside `tx` (run moves, which hold a transaction anyway): exact, and as durable as the move. */
export async function addUsageIn(tx: Prisma.TransactionClient, event: UsageEvent): Promise<void> {
  const row = toRow(event);
  await tx.$executeRaw(upsert([row]));
  const versionRow = toVersionRow(event, row);
  if (versionRow) await tx.$executeRaw(upsertVersions([versionRow]));
}
