// Reading the usage rollups (docs/api.md, Usage): the figures of an organization over a range of
// hours, grouped by hour, day, agent or key. Reads `usage_hourly` only (one row per organization,
// agent, key and hour), never the messages or runs, so its cost follows the range, not the history.
import { database } from "../db";
import { latencyQuantile, LATENCY_BUCKETS, addBuckets } from "./histogram";
import { hourOf } from "./recorder";
import type { UsageFigures, UsageGroupBy, UsageQuery, UsageReport } from "./schemas";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The SQL of each grouping: a constant per value of the validated enum, never the caller's text.
 * Hours and days group by the timestamp itself and are formatted once per group, in `g_ms`.
 */
const GROUP_SQL: Record<UsageGroupBy, string> = {
  hour: "hour",
  day: "date_trunc('day', hour)",
  agent: "agent_id",
  key: "key_id",
};

/** The histogram summed bucket by bucket with subscripts (cheaper than unnesting every row's array). */
const BUCKET_SUMS = Array.from(
  { length: LATENCY_BUCKETS },
  (_, i) => `COALESCE(sum(latency_buckets[${i + 1}]), 0)::float8 AS b${i}`,
).join(", ");

const SUMS = [
  "triggers",
  "replies_completed",
  "replies_failed",
  "runs_started",
  "runs_completed",
  "runs_failed",
  "runs_cancelled",
  "runs_needs_review",
  "prompt_tokens",
  "completion_tokens",
  "cost",
  "uploads",
  "upload_bytes",
  "evaluation_cases",
  "evaluation_tokens",
  "evaluation_cost",
] as const;
type Sums = Record<(typeof SUMS)[number], number> & { buckets: number[] };

const emptySums = (): Sums => ({
  ...(Object.fromEntries(SUMS.map((s) => [s, 0])) as Record<(typeof SUMS)[number], number>),
  buckets: new Array<number>(LATENCY_BUCKETS).fill(0),
});

function figures(s: Sums): UsageFigures {
  const replies = s.replies_completed + s.replies_failed;
  return {
    triggers: s.triggers,
    replies_completed: s.replies_completed,
    replies_failed: s.replies_failed,
    error_rate: replies ? s.replies_failed / replies : null,
    latency_p50_ms: latencyQuantile(s.buckets, 0.5),
    latency_p95_ms: latencyQuantile(s.buckets, 0.95),
    runs_started: s.runs_started,
    runs_completed: s.runs_completed,
    runs_failed: s.runs_failed,
    runs_cancelled: s.runs_cancelled,
    runs_needs_review: s.runs_needs_review,
    prompt_tokens: s.prompt_tokens,
    completion_tokens: s.completion_tokens,
    cost: Math.round(s.cost * 1e6) / 1e6,
    uploads: s.uploads,
    upload_bytes: s.upload_bytes,
    evaluation_cases: s.evaluation_cases,
    evaluation_tokens: s.evaluation_tokens,
    evaluation_cost: Math.round(s.evaluation_cost * 1e6) / 1e6,
  };
}

/** The range a query asks for: `to` defaults to now, `from` to a day before `to`; `from` starts its hour. */
export function usageRange(q: Pick<UsageQuery, "from" | "to">): { from: Date; to: Date } {
  const to = q.to ? new Date(q.to) : new Date();
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DAY);
  return { from: new Date(hourOf(from)), to };
}

/** The sums of the rollups of `organizationId` in [from, to), per group; the caller has validated the query. */
export async function readUsageSums(opts: {
  organizationId: string;
  from: Date;
  to: Date;
  groupBy: UsageGroupBy;
  agentId?: string | null;
  keyId?: string | null;
}): Promise<Map<string, Sums>> {
  // The driver's own query: Prisma's decoding of a raw answer costs more than the query itself
  // here (hundreds of rows of 47 columns; docs/benchmarks.md, usage). Parameters only.
  const db = await database();
  const timed = opts.groupBy === "hour" || opts.groupBy === "day";
  const rows = await db.sql.query<Record<string, unknown>>(
    `SELECT ${timed ? "(extract(epoch FROM g) * 1000)::float8 AS g_ms" : "g"}, s.* FROM (
      SELECT ${GROUP_SQL[opts.groupBy]} AS g, ${SUMS.map((s) => `sum(${s})::float8 AS ${s}`).join(", ")}, ${BUCKET_SUMS}
      FROM usage_hourly
      WHERE organization_id = $1 AND hour >= $2::timestamp(3) AND hour < $3::timestamp(3)
        AND ($4::text IS NULL OR agent_id = $4) AND ($5::text IS NULL OR key_id = $5)
      GROUP BY 1) s`,
    [opts.organizationId, opts.from.toISOString(), opts.to.toISOString(), opts.agentId || null, opts.keyId ?? null],
  );
  const out = new Map<string, Sums>();
  for (const r of rows) {
    const s = emptySums();
    for (const k of SUMS) s[k] = Number(r[k] ?? 0);
    for (let i = 0; i < LATENCY_BUCKETS; i++) s.buckets[i] = Number(r[`b${i}`] ?? 0);
    out.set(timed ? new Date(Number(r.g_ms)).toISOString() : String(r.g), s);
  }
  return out;
}

/** The keys of a dense time series: every hour or day of the range, in order. */
function timeGroups(groupBy: "hour" | "day", from: Date, to: Date): string[] {
  const step = groupBy === "hour" ? HOUR : DAY;
  let t = Math.floor(from.getTime() / step) * step;
  const keys: string[] = [];
  for (; t < to.getTime(); t += step) keys.push(new Date(t).toISOString());
  return keys;
}

/** GET /api/v1/organizations/{org_id}/usage and the console's charts. */
export async function usageReport(opts: { organizationId: string; query: UsageQuery }): Promise<UsageReport> {
  const { query } = opts;
  const { from, to } = usageRange(query);
  const sums = await readUsageSums({
    organizationId: opts.organizationId,
    from,
    to,
    groupBy: query.group_by,
    agentId: query.agent_id,
    keyId: query.key_id,
  });
  const total = emptySums();
  for (const s of sums.values()) {
    for (const k of SUMS) total[k] += s[k];
    total.buckets = addBuckets(total.buckets, s.buckets);
  }
  const keys =
    query.group_by === "hour" || query.group_by === "day"
      ? timeGroups(query.group_by, from, to)
      : [...sums.keys()].sort();
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    group_by: query.group_by,
    agent_id: query.agent_id ?? null,
    key_id: query.key_id ?? null,
    totals: figures(total),
    groups: keys.map((group) => ({ group, ...figures(sums.get(group) ?? emptySums()) })),
  };
}
