// What the runs list and the run page share: the run states, the controls and small display helpers
// (the records' types come from the schemas of lib/runs/schemas.ts).
import { formatNumber } from "@/components/console/format";
import { ProgressBar } from "@/components/ui/misc";
import type { CONTROL_VALUES, OrgRunListItem as RunListItem } from "@/lib/runs/schemas";
import type { RunStatus } from "@/lib/runs/statuses";

/** The run states in the order the filter offers them. */
export const RUN_STATUSES = [
  "pending",
  "running",
  "needs_review",
  "paused",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly RunStatus[];
export { ITEM_STATUS_VALUES as ITEM_STATUSES, CONTROL_VALUES as CONTROLS } from "@/lib/runs/schemas";
export type {
  MemberApproval as Approval,
  OrgRunDetail as RunDetail,
  RunItemRecord as RunItem,
  OrgRunListItem as RunListItem,
} from "@/lib/runs/schemas";
export type Control = (typeof CONTROL_VALUES)[number];

/** Runs the engine is working on (poll fast), runs others may move (poll slowly), and final runs. */
export const isActive = (status: string) => status === "pending" || status === "running";
export const isWaiting = (status: string) => status === "paused" || status === "needs_review";

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null) return "—";
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${String(Math.round(seconds % 60)).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export const formatPercent = (p: number) => `${Number.isInteger(p) ? p : p.toFixed(1)}%`;

export function RunProgress({ run, label }: { run: Pick<RunListItem, "progress_percent">; label: string }) {
  return (
    <div className="flex min-w-[7.5rem] items-center gap-2">
      <ProgressBar percent={run.progress_percent} label={label} />
      <span className="w-11 shrink-0 text-right text-xs text-zinc-700 tabular-nums">
        {formatPercent(run.progress_percent)}
      </span>
    </div>
  );
}

/** completed / failed / needs review / total, compact, for the list. */
export function ItemCounts({ counts }: { counts: RunListItem["item_counts"] }) {
  return (
    <span className="text-xs whitespace-nowrap text-zinc-700 tabular-nums">
      <span title="completed" className="text-emerald-800">
        {formatNumber(counts.completed)} done
      </span>
      {" · "}
      <span title="failed" className={counts.failed ? "text-red-800" : undefined}>
        {formatNumber(counts.failed)} failed
      </span>
      {" · "}
      <span title="needs review" className={counts.needs_review ? "font-medium text-amber-900" : undefined}>
        {formatNumber(counts.needs_review)} review
      </span>
      {" · "}
      <span title="total">{formatNumber(counts.total)} total</span>
    </span>
  );
}

/** Compact JSON on one line, cut to `max` characters. */
export function compactJson(value: unknown, max = 80): string {
  if (value === undefined) return "";
  const s = JSON.stringify(value) ?? "";
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
