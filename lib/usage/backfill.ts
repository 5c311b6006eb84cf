// Recomputing the usage rollups from the base tables (docs/api.md, Usage; `npm run admin -- usage
// backfill`): for history written before the rollups existed, after a crash lost a second of
// counts, and by the benchmarks' seeds. Every rollup row of the hours before `before` (of one
// organization, or all) is replaced by the figures the messages, runs and files give. The base
// tables know no Access Key, so recomputed hours have key '' (their per-key split is lost), and a run
// counts once, by the state it is in now (live counting adds each end a retried run reaches). Evaluation
// usage comes from the finished cases of the evaluations retention has kept.
import { prisma } from "../db";
import { Prisma as P } from "../generated/prisma/client";
import { LATENCY_BOUNDS_MS, LATENCY_BUCKETS } from "./histogram";
import { hourOf } from "./recorder";

const bucketArray = P.raw(
  `ARRAY[${Array.from({ length: LATENCY_BUCKETS }, (_, i) => `count(*) FILTER (WHERE b = ${i})`).join(", ")}]::int[]`,
);

/** Replaces the rollups of the hours before `before` (default: the current hour) with recomputed ones; answers the rows written. */
export async function backfillUsage(opts: { organizationId?: string; before?: Date } = {}): Promise<number> {
  const db = await prisma();
  const before = hourOf(opts.before ?? new Date());
  const org = (column: string) =>
    opts.organizationId ? P.sql`AND ${P.raw(column)} = ${opts.organizationId}` : P.empty;
  const bounds = `{${LATENCY_BOUNDS_MS.join(",")}}`;
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw(
        P.sql`DELETE FROM usage_hourly WHERE hour < ${before}::timestamp(3) ${org("organization_id")}`,
      );
      return tx.$executeRaw(P.sql`
        WITH ev AS (
          SELECT organization_id o, agent_id a, date_trunc('hour', created_at) h, 1 t, 0 rc, 0 rf, 0 rs, 0 re_c, 0 re_f,
            0 re_x, 0 re_r, 0::bigint pt, 0::bigint ct, 0::float8 cost, 0::bigint lat, NULL::int b, 0 up, 0::bigint ub
          FROM messages WHERE role = 'user' AND created_at < ${before}::timestamp(3) ${org("organization_id")}
          UNION ALL
          SELECT organization_id, agent_id, date_trunc('hour', completed_at), 0, (status = 'completed')::int,
            (status = 'error')::int, 0, 0, 0, 0, 0, COALESCE(prompt_tokens, 0), COALESCE(completion_tokens, 0), cost,
            processing_time_ms, width_bucket(processing_time_ms - 1, ${bounds}::int[]), 0, 0
          FROM messages WHERE role = 'assistant' AND status IN ('completed', 'error') AND completed_at IS NOT NULL
            AND completed_at < ${before}::timestamp(3) ${org("organization_id")}
          UNION ALL
          SELECT organization_id, agent_id, date_trunc('hour', created_at), 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0
          FROM runs WHERE created_at < ${before}::timestamp(3) ${org("organization_id")}
          UNION ALL
          SELECT organization_id, agent_id, date_trunc('hour', COALESCE(completed_at, updated_at)), 0, 0, 0, 0,
            (status = 'completed')::int, (status = 'failed')::int, (status = 'cancelled')::int,
            (status = 'needs_review')::int, 0, 0, 0, 0, NULL, 0, 0
          FROM runs WHERE status IN ('completed', 'failed', 'cancelled', 'needs_review')
            AND COALESCE(completed_at, updated_at) < ${before}::timestamp(3) ${org("organization_id")}
          UNION ALL
          SELECT organization_id, agent_id, date_trunc('hour', created_at), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 1,
            size_bytes
          FROM files WHERE created_at < ${before}::timestamp(3) ${org("organization_id")}
        ), evals AS (
          SELECT c.organization_id o, e.agent_id a, date_trunc('hour', c.finished_at) h, 1 n, c.tokens::bigint tk,
            c.cost::float8 ec
          FROM evaluation_cases c JOIN evaluations e ON e.id = c.evaluation_id
          WHERE c.status = 'done' AND c.outcome <> 'skipped' AND c.finished_at < ${before}::timestamp(3)
            ${org("c.organization_id")}
        ), all_rows AS (
          SELECT o, a, h, t, rc, rf, rs, re_c, re_f, re_x, re_r, pt, ct, cost, lat, b, up, ub, 0 n, 0::bigint tk,
            0::float8 ec FROM ev
          UNION ALL
          SELECT o, a, h, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, n, tk, ec FROM evals
        )
        INSERT INTO usage_hourly (organization_id, agent_id, key_id, hour, triggers, replies_completed, replies_failed,
          runs_started, runs_completed, runs_failed, runs_cancelled, runs_needs_review, prompt_tokens, completion_tokens,
          cost, latency_ms_sum, latency_buckets, uploads, upload_bytes, evaluation_cases, evaluation_tokens,
          evaluation_cost)
        SELECT o, a, '', h, sum(t), sum(rc), sum(rf), sum(rs), sum(re_c), sum(re_f), sum(re_x), sum(re_r), sum(pt), sum(ct),
          sum(cost), sum(lat), ${bucketArray}, sum(up), sum(ub), sum(n), sum(tk), sum(ec)
        FROM all_rows GROUP BY o, a, h`);
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}
