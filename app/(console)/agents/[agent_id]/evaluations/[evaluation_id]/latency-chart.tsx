"use client";
// The latency distributions of both sides: every case's latency_ms (all its pages, at most 500
// cases) counted into ten buckets, baseline beside candidate. Loaded after the page (Recharts).
import { keepPreviousData } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMs } from "@/components/console/format";
import { useApiEvery } from "@/components/console/use-api";
import { Card } from "@/components/ui/misc";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import type { EvaluationCaseRecord, EvaluationRecord } from "@/lib/evaluations/schemas";
import { movedOf } from "./labels";

const BUCKETS = 10;

/** Ten equal buckets from 0 to the slowest case, with how many cases of each side fall in each. */
export function buckets(cases: EvaluationCaseRecord[]) {
  const of = (side: "baseline" | "candidate") =>
    cases.map((c) => c[side]?.latency_ms).filter((ms): ms is number => typeof ms === "number");
  const baseline = of("baseline");
  const candidate = of("candidate");
  const top = Math.max(1, ...baseline, ...candidate);
  const width = Math.ceil(top / BUCKETS);
  const rows = Array.from({ length: BUCKETS }, (_, i) => ({
    label: `${formatMs(i * width)}–${formatMs((i + 1) * width)}`,
    baseline: 0,
    candidate: 0,
  }));
  const at = (ms: number) => rows[Math.min(BUCKETS - 1, Math.floor(ms / width))]!;
  for (const ms of baseline) at(ms).baseline++;
  for (const ms of candidate) at(ms).candidate++;
  return { rows, count: baseline.length + candidate.length };
}

export function LatencyChart({ evaluation: e }: { evaluation: EvaluationRecord }) {
  // Every case (at most 500, the most an evaluation has), 200 a page; read again as the evaluation
  // moves.
  const q = useApiEvery(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases",
    "cases",
    { params: { agent_id: e.agent_id, evaluation_id: e.evaluation_id }, query: { limit: 200 } },
    { placeholderData: keepPreviousData, version: movedOf(e) },
  );
  let body;
  if (q.isPending) body = <Skeleton className="h-52" />;
  else if (q.error) body = <ErrorState error={q.error} title="The cases could not be loaded" />;
  else {
    const { rows, count } = buckets(q.data.cases);
    body =
      count === 0 ? (
        <EmptyState title="No latencies yet">Cases show here as they finish.</EmptyState>
      ) : (
        <>
          <div aria-hidden="true" className="h-52 w-full min-w-0" data-testid="latency-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
                <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#52525b" }} minTickGap={16} />
                <YAxis tick={{ fontSize: 11, fill: "#52525b" }} width={32} allowDecimals={false} />
                <Tooltip />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar dataKey="baseline" name="Baseline" fill="#a1a1aa" isAnimationActive={false} />
                <Bar dataKey="candidate" name="Candidate" fill="#4f46e5" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <table className="sr-only">
            <caption>Latency distribution of both sides</caption>
            <thead>
              <tr>
                <th scope="col">Latency</th>
                <th scope="col">Baseline</th>
                <th scope="col">Candidate</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.label}>
                  <td>{r.label}</td>
                  <td>{r.baseline}</td>
                  <td>{r.candidate}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
  }
  return (
    <Card title="Latency distribution" className="mb-6">
      {body}
    </Card>
  );
}
