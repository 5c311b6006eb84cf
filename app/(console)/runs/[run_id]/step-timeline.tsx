"use client";
// One item's step timeline (docs/console.md, Runs): each step it reached, in order, with its start,
// duration, outcome, attempt and error, and a waterfall of where the time went.
import { formatMs } from "@/components/console/format";
import { Badge, statusLabel, StatusBadge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { RunItem } from "../shared";

type Entry = RunItem["timeline"][number];

const OUTCOME_LABEL: Record<Entry["outcome"], string> = {
  completed: "completed",
  not_applied: "condition false",
  skipped: "skipped",
  failed: "failed",
  needs_review: "needs review",
};

/** 12:00:00.005 UTC: steps of one item are milliseconds apart, so the time shows them. */
const clock = (iso: string) => `${iso.slice(11, 23)} UTC`;

/** Where each entry sits on the item's time span, in percent (a call's bar is its duration). */
function waterfall(entries: Entry[]) {
  const starts = entries.map((e) => Date.parse(e.started_at));
  const first = Math.min(...starts);
  const last = Math.max(...entries.map((e, i) => starts[i]! + (e.duration_ms ?? 0)));
  const span = Math.max(last - first, 1);
  return entries.map((e, i) => ({
    left: ((starts[i]! - first) / span) * 100,
    width: e.duration_ms == null ? 0 : (e.duration_ms / span) * 100,
  }));
}

export function StepTimeline({ index, entries }: { index: number; entries: Entry[] }) {
  if (!entries.length) {
    return (
      <p className="text-sm text-zinc-600">
        No steps recorded: the item has not reached its first step, or it was processed before step timelines were kept.
      </p>
    );
  }
  const bars = waterfall(entries);
  return (
    <ol aria-label={`Steps of item ${index}`} className="space-y-1.5">
      {entries.map((e, i) => (
        <li
          key={i}
          className={cn(
            // relative: the screen-reader text inside stays within the table's sideways scroll
            "relative grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 rounded-md px-2 py-1.5 text-xs ring-1 ring-zinc-200 sm:grid-cols-[minmax(8rem,14rem)_7rem_8rem_1fr]",
            e.outcome === "not_applied" && "text-zinc-600",
          )}
        >
          <span className="flex min-w-0 flex-wrap items-center gap-1.5">
            <span className="font-mono break-all text-zinc-900">{e.step_id}</span>
            <span className="text-zinc-600">{e.type}</span>
            {e.attempt > 1 && <Badge tone="amber">attempt {e.attempt}</Badge>}
          </span>
          <span className="justify-self-end sm:justify-self-start">
            {e.outcome === "not_applied" ? (
              <span className="text-zinc-600">{OUTCOME_LABEL[e.outcome]}</span>
            ) : (
              <StatusBadge status={e.outcome} />
            )}
          </span>
          <span className="text-zinc-700 tabular-nums">
            <span className="sr-only">Started </span>
            {clock(e.started_at)}
          </span>
          <span className="flex items-center gap-2 justify-self-end tabular-nums sm:justify-self-stretch">
            <span className="w-16 text-right text-zinc-800">
              {e.duration_ms == null ? (
                <span title="Expression steps are evaluated together">expr</span>
              ) : (
                formatMs(e.duration_ms)
              )}
            </span>
            <span aria-hidden className="relative hidden h-2 flex-1 rounded bg-zinc-100 sm:block">
              <span
                className={cn(
                  "absolute top-0 h-2 rounded",
                  e.outcome === "failed" ? "bg-red-400" : e.duration_ms == null ? "bg-zinc-400" : "bg-indigo-400",
                )}
                style={{
                  left: `${Math.min(bars[i]!.left, 99)}%`,
                  width: bars[i]!.width ? `${bars[i]!.width}%` : "2px",
                }}
              />
            </span>
          </span>
          {e.error && (
            <p className="col-span-full break-words text-red-800">
              <span className="sr-only">{statusLabel(e.outcome)}: </span>
              {e.error}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** "5 steps", "4 steps · retried": the toggle's words. */
function timelineSummary(entries: Entry[]): string {
  if (!entries.length) return "No steps";
  const retried = entries.some((e) => e.attempt > 1);
  return `${entries.length} step${entries.length === 1 ? "" : "s"}${retried ? " · retried" : ""}`;
}

/** Opens and closes an item's timeline (the row under the item's, `timeline-<item_id>`). */
export function TimelineToggle({ item, open, onToggle }: { item: RunItem; open: boolean; onToggle: () => void }) {
  const words = timelineSummary(item.timeline);
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={open ? `timeline-${item.item_id}` : undefined}
      aria-label={`${words} of item ${item.index}`}
      onClick={onToggle}
      className="rounded text-xs font-medium whitespace-nowrap text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <span aria-hidden className={cn("mr-1 inline-block", open && "rotate-90")}>
        ▸
      </span>
      {words}
    </button>
  );
}
