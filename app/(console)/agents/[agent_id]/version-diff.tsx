"use client";
// The changes between two versions of an agent, side by side: each change under its path as a
// heading, the value before and after as indented JSON, the changed side coloured (added green,
// removed red, changed amber) and named in words too. The two sides stack on a phone.
import type { VersionChange } from "@/lib/agents/schemas";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/states";

const CHANGE_TONES: Record<VersionChange["change"], string> = {
  added: "bg-emerald-50 text-emerald-900 ring-emerald-300",
  removed: "bg-red-50 text-red-900 ring-red-300",
  changed: "bg-amber-50 text-amber-950 ring-amber-300",
  moved: "bg-amber-50 text-amber-950 ring-amber-300",
};

export function ChangeBadge({ change }: { change: VersionChange["change"] }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        CHANGE_TONES[change],
      )}
    >
      {change}
    </span>
  );
}

/** One side of a change: the value as indented JSON, coloured when this side is what changed. */
function Side({ caption, value, tone }: { caption: string; value: unknown; tone: string | null }) {
  return (
    <figure className="min-w-0">
      <figcaption className="text-xs font-medium text-zinc-600">{caption}</figcaption>
      {tone ? (
        <pre
          className={cn(
            "mt-1 max-h-96 overflow-y-auto rounded-md p-2 font-mono text-xs whitespace-pre-wrap ring-1 ring-inset [overflow-wrap:anywhere]",
            tone,
          )}
        >
          {JSON.stringify(value, null, 2)}
        </pre>
      ) : (
        <p className="mt-1 rounded-md bg-zinc-50 p-2 text-xs text-zinc-600 italic ring-1 ring-zinc-200 ring-inset">
          not set
        </p>
      )}
    </figure>
  );
}

/** The changes leading from version `from` to version `to`, or "No differences". */
export function ChangeList({ changes, from, to }: { changes: VersionChange[]; from: number; to: number }) {
  if (changes.length === 0) {
    return (
      <EmptyState title="No differences">
        Versions {from} and {to} have the same runtime, workflow and callback URL.
      </EmptyState>
    );
  }
  return (
    <ol className="space-y-3" aria-label={`Changes from version ${from} to version ${to}`}>
      {changes.map((c) => (
        <li
          key={`${c.path}-${c.change}`}
          className="rounded-lg bg-white p-3 ring-1 ring-zinc-200"
          data-change={c.change}
        >
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <h4 className="font-mono text-sm font-semibold [overflow-wrap:anywhere] text-zinc-900">{c.path}</h4>
            <ChangeBadge change={c.change} />
          </div>
          <div className="grid gap-2 sm:grid-cols-2">
            <Side
              caption={`Version ${from}`}
              value={c.from}
              tone={c.change === "added" ? null : CHANGE_TONES[c.change]}
            />
            <Side
              caption={`Version ${to}`}
              value={c.to}
              tone={c.change === "removed" ? null : CHANGE_TONES[c.change]}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}
