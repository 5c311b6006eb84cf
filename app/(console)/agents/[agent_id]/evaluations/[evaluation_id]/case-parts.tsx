"use client";
// What the case view shows of a case: a value as text, one side's output with its figures, the
// diff (inserted words green and underlined with "+", deleted ones red and struck with "−": never
// colour alone), and each check's result.
import type { EvaluationCaseRecord } from "@/lib/evaluations/schemas";
import { formatCost, formatMs, formatNumber } from "@/components/console/format";

export const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

// A long output scrolls within its box: the box takes focus (tabIndex), so the keyboard scrolls it too.
const box =
  "max-h-64 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere] ring-1 ring-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-600";

export function Value({ label, value }: { label: string; value: unknown }) {
  return (
    <section aria-label={label} className="min-w-0 space-y-1">
      <h3 className="text-xs font-semibold text-zinc-700 uppercase">{label}</h3>
      <pre className={box} tabIndex={0}>
        {value === undefined ? "—" : asText(value)}
      </pre>
    </section>
  );
}

export function SideView({ label, side }: { label: string; side: EvaluationCaseRecord["baseline"] }) {
  return (
    <div className="min-w-0 space-y-1">
      <Value label={label} value={side ? side.output : undefined} />
      {side && (
        <p className="text-xs text-zinc-600">
          {formatMs(side.latency_ms)} · {formatNumber(side.tokens)} tokens · {formatCost(side.cost_usd)}
        </p>
      )}
      {side?.error && <p className="text-xs font-medium text-red-700">Error: {side.error}</p>}
    </div>
  );
}

export function DiffView({ diff }: { diff: EvaluationCaseRecord["diff"] }) {
  if (!diff) return <p className="text-sm text-zinc-600">No diff: the two sides cannot be compared as text.</p>;
  if (diff.every((p) => p.op === "equal")) return <p className="text-sm text-zinc-600">No difference.</p>;
  return (
    <section aria-label="Diff" className="min-w-0 space-y-1">
      <h3 className="text-xs font-semibold text-zinc-700 uppercase">Diff, baseline to candidate</h3>
      <p className={box} data-testid="case-diff" tabIndex={0}>
        {diff.map((p, i) =>
          p.op === "insert" ? (
            <ins key={i} className="bg-emerald-100 text-emerald-900 underline">
              <span className="sr-only">inserted: </span>
              <span aria-hidden="true">+</span>
              {p.text}
            </ins>
          ) : p.op === "delete" ? (
            <del key={i} className="bg-red-100 text-red-900 line-through">
              <span className="sr-only">deleted: </span>
              <span aria-hidden="true">−</span>
              {p.text}
            </del>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </p>
    </section>
  );
}

export function ChecksView({ checks }: { checks: EvaluationCaseRecord["checks"] }) {
  if (!checks.length) return <p className="text-sm text-zinc-600">No checks.</p>;
  return (
    <ul aria-label="Checks" className="space-y-1 text-sm">
      {checks.map((c) => (
        <li key={`${c.kind}-${c.name}`} className="flex flex-wrap gap-x-2">
          <span className={c.passed ? "font-medium text-emerald-800" : "font-medium text-red-700"}>
            {c.passed ? "✓ passed" : "✗ failed"}
          </span>
          <span>{c.name}</span>
          {c.message && <span className="text-zinc-600 [overflow-wrap:anywhere]">{c.message}</span>}
        </li>
      ))}
    </ul>
  );
}
