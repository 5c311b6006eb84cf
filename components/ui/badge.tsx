import type { ReactNode } from "react";
import { cn } from "./cn";

/** One colour per state, the same everywhere (runs, items, sessions, messages, keys, deliveries). */
const STATUS_TONES: Record<string, string> = {
  pending: "bg-zinc-100 text-zinc-700 ring-zinc-300",
  running: "bg-sky-50 text-sky-800 ring-sky-300",
  processing: "bg-sky-50 text-sky-800 ring-sky-300",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  delivered: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  active: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  failed: "bg-red-50 text-red-800 ring-red-300",
  error: "bg-red-50 text-red-800 ring-red-300",
  revoked: "bg-red-50 text-red-800 ring-red-300",
  expired: "bg-red-50 text-red-800 ring-red-300",
  rolled: "bg-amber-50 text-amber-900 ring-amber-300",
  needs_review: "bg-amber-50 text-amber-900 ring-amber-300",
  paused: "bg-violet-50 text-violet-800 ring-violet-300",
  cancelled: "bg-zinc-200 text-zinc-800 ring-zinc-400",
  closed: "bg-zinc-200 text-zinc-800 ring-zinc-400",
  skipped: "bg-zinc-100 text-zinc-700 ring-zinc-300",
  // An agent version's state (docs/console.md, Versions).
  draft: "bg-amber-50 text-amber-900 ring-amber-300",
  published: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  rollout: "bg-sky-50 text-sky-800 ring-sky-300",
  rolled_back: "bg-red-50 text-red-800 ring-red-300",
};

export const statusLabel = (status: string) => status.replace(/_/g, " ");

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        STATUS_TONES[status] ?? "bg-zinc-100 text-zinc-700 ring-zinc-300",
        className,
      )}
    >
      {statusLabel(status)}
    </span>
  );
}

export function Badge({ children, tone = "zinc" }: { children: ReactNode; tone?: "zinc" | "amber" | "indigo" }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        tone === "zinc" && "bg-zinc-100 text-zinc-700 ring-zinc-300",
        tone === "amber" && "bg-amber-50 text-amber-900 ring-amber-300",
        tone === "indigo" && "bg-indigo-50 text-indigo-800 ring-indigo-300",
      )}
    >
      {children}
    </span>
  );
}
