// Usage of one agent version over a span of minutes, from version_usage_minutely (kept while a
// canary rollout is on: ./recorder.ts): what a rollout's side-by-side figures show and what its
// guard rules judge (docs/api.md, Versions).
import { prisma } from "../db";
import { Prisma as P } from "../generated/prisma/client";
import { latencyQuantile, LATENCY_BUCKETS } from "./histogram";
import { minuteOf } from "./recorder";

export interface VersionFigures {
  version: number;
  triggers: number;
  replies: number;
  replies_failed: number;
  runs_started: number;
  runs_ended: number;
  runs_failed: number;
  /** Failed replies and runs, in % of those that ended; null when none ended. */
  error_rate: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

interface SumRow {
  agent_version: number;
  triggers: number;
  replies_completed: number;
  replies_failed: number;
  runs_started: number;
  runs_completed: number;
  runs_failed: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  buckets: number[] | null;
}

/** The figures of each of `versions` of the agent, from the minute of `since` on. */
export async function versionFigures(agentId: string, versions: number[], since: Date): Promise<VersionFigures[]> {
  const db = await prisma();
  const rows = await db.$queryRaw<SumRow[]>(P.sql`
    SELECT v.agent_version, sum(v.triggers)::float8 AS triggers, sum(v.replies_completed)::float8 AS replies_completed,
      sum(v.replies_failed)::float8 AS replies_failed, sum(v.runs_started)::float8 AS runs_started,
      sum(v.runs_completed)::float8 AS runs_completed, sum(v.runs_failed)::float8 AS runs_failed,
      sum(v.prompt_tokens)::float8 AS prompt_tokens, sum(v.completion_tokens)::float8 AS completion_tokens,
      sum(v.cost)::float8 AS cost,
      (SELECT array_agg(n ORDER BY i) FROM (
         SELECT u.i, sum(u.n)::int AS n FROM version_usage_minutely h, unnest(h.latency_buckets) WITH ORDINALITY AS u(n, i)
         WHERE h.agent_id = ${agentId} AND h.agent_version = v.agent_version AND h.minute >= ${minuteOf(since)}::timestamp(3)
         GROUP BY u.i) b) AS buckets
    FROM version_usage_minutely v
    WHERE v.agent_id = ${agentId} AND v.agent_version IN (${P.join(versions)}) AND v.minute >= ${minuteOf(since)}::timestamp(3)
    GROUP BY v.agent_version`);
  return versions.map((version) => {
    const r = rows.find((x) => Number(x.agent_version) === version);
    const n = (k: keyof SumRow) => Number(r?.[k] ?? 0);
    const ended = n("replies_completed") + n("replies_failed") + n("runs_completed") + n("runs_failed");
    const failed = n("replies_failed") + n("runs_failed");
    const buckets = r?.buckets ?? new Array<number>(LATENCY_BUCKETS).fill(0);
    return {
      version,
      triggers: n("triggers"),
      replies: n("replies_completed") + n("replies_failed"),
      replies_failed: n("replies_failed"),
      runs_started: n("runs_started"),
      runs_ended: n("runs_completed") + n("runs_failed"),
      runs_failed: n("runs_failed"),
      error_rate: ended ? Math.round((failed / ended) * 10_000) / 100 : null,
      latency_p50_ms: latencyQuantile(buckets, 0.5),
      latency_p95_ms: latencyQuantile(buckets, 0.95),
      prompt_tokens: n("prompt_tokens"),
      completion_tokens: n("completion_tokens"),
      cost: Math.round(n("cost") * 1e6) / 1e6,
    };
  });
}
