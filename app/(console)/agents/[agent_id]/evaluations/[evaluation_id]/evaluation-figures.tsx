"use client";
// The two sides of an evaluation side by side (error rate, latency p50/p95, tokens, cost), its case
// counts and its verdict counts.
import type { EvaluationRecord } from "@/lib/evaluations/schemas";
import { formatCost, formatMs, formatNumber } from "@/components/console/format";
import { Card } from "@/components/ui/misc";
import { Table, TBody, Td, Tr } from "@/components/ui/table";

type Side = EvaluationRecord["sides"]["baseline"];
const percent = (n: number) => `${(n * 100).toFixed(1)} %`;
const ROWS: [string, (s: Side) => string][] = [
  ["Cases", (s) => formatNumber(s.cases)],
  ["Error rate", (s) => percent(s.error_rate)],
  ["Latency p50", (s) => formatMs(s.latency_ms.p50)],
  ["Latency p95", (s) => formatMs(s.latency_ms.p95)],
  ["Tokens", (s) => formatNumber(s.tokens)],
  ["Cost", (s) => formatCost(s.cost_usd)],
];

function Counts({ label, items }: { label: string; items: [string, number][] }) {
  return (
    <dl aria-label={label} className="flex flex-wrap gap-2 text-sm">
      {items.map(([name, n]) => (
        <div key={name} className="rounded-md bg-zinc-50 px-2.5 py-1 ring-1 ring-zinc-200">
          <dt className="inline text-zinc-600">{name} </dt>
          <dd className="inline font-semibold text-zinc-900" data-testid={`count-${name}`}>
            {formatNumber(n)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function EvaluationFigures({ evaluation: e }: { evaluation: EvaluationRecord }) {
  const { baseline, candidate } = e.sides;
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-2">
      <Card title="Side by side">
        <Table label="Figures of both sides" columns={["Figure", "Baseline", "Candidate"]} className="ring-0">
          <TBody>
            {ROWS.map(([name, value]) => (
              <Tr key={name}>
                <Td className="font-medium text-zinc-700">{name}</Td>
                <Td className="tabular-nums">{value(baseline)}</Td>
                <Td className="tabular-nums">{value(candidate)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
      <Card title="Cases and verdicts">
        <div className="space-y-3">
          <Counts
            label="Case outcomes"
            items={[
              ["passed", e.counts.passed],
              ["failed", e.counts.failed],
              ["errored", e.counts.errored],
              ["skipped", e.counts.skipped],
              ["changed", e.counts.changed],
            ]}
          />
          <Counts
            label="Verdicts"
            items={[
              ["better", e.verdicts.better],
              ["same", e.verdicts.same],
              ["worse", e.verdicts.worse],
            ]}
          />
          <p className="text-xs text-zinc-600">
            Spent {formatNumber(e.spent.tokens)} tokens, {formatCost(e.spent.cost_usd)}
            {e.budget.max_cost_usd !== null && ` of ${formatCost(e.budget.max_cost_usd)}`}
            {e.budget.max_tokens !== null && ` (at most ${formatNumber(e.budget.max_tokens)} tokens)`}.
          </p>
        </div>
      </Card>
    </div>
  );
}
