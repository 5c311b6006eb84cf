"use client";
// What a bulk decision did: how many items were decided, skipped and failed, and why each one that
// was not decided was not.
import type { BulkDecideResult as BulkDecision } from "@/lib/reviews/schemas";
import { Button } from "@/components/ui/button";

export function BulkOutcome({ result, onClose }: { result: BulkDecision; onClose: () => void }) {
  const notDone = result.results.filter((r) => r.outcome !== "decided");
  return (
    <section
      aria-label="Outcome of the bulk decision"
      className="mb-4 rounded-lg bg-white p-4 text-sm ring-1 ring-zinc-200"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="font-medium text-zinc-900">
          {result.decided} decided, {result.skipped} skipped, {result.failed} failed
        </p>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Dismiss
        </Button>
      </div>
      {notDone.length > 0 && (
        <ul className="mt-2 space-y-1 text-zinc-800">
          {notDone.map((r) => (
            <li key={r.exception_id} className="break-words">
              <span className="font-mono text-xs">{r.exception_id}</span>: {r.outcome}, {r.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
