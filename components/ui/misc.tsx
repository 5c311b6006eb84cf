"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={cn("rounded-lg bg-white ring-1 ring-zinc-200", className)}>
      {(title || actions) && (
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-3">
          {title && <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      <div className="p-4">{children}</div>
    </section>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold break-words text-zinc-900">{title}</h1>
        {description && <div className="mt-1 text-sm text-zinc-600">{description}</div>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

// The copy controls live in ./copy.tsx; these names are kept for the pages that import them here.
export { CopyButton, CopyField as ShownOnce } from "./copy";

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const p = Math.max(0, Math.min(100, percent));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(p)}
      className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
    >
      <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${p}%` }} />
    </div>
  );
}

/**
 * The pager of a cursor-paged list: "First page", then back and forward (newest-first lists say
 * Newer and Older). A move that is not possible is absent (`undefined`); the range of rows shows only
 * where it is known without counting.
 */
export function Pager({
  range,
  order = "newest",
  onFirst,
  onPrevious,
  onNext,
}: {
  range?: string;
  order?: "newest" | "position";
  onFirst?: () => void;
  onPrevious?: () => void;
  onNext?: () => void;
}) {
  if (!onFirst && !onNext) return null;
  const [back, forward] = order === "newest" ? ["Newer", "Older"] : ["Previous", "Next"];
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-zinc-700">
      <span>{range}</span>
      <div className="flex flex-wrap gap-2">
        {onFirst && (
          <Button variant="ghost" size="sm" onClick={onFirst}>
            First page
          </Button>
        )}
        <Button variant="secondary" size="sm" disabled={!onPrevious} onClick={onPrevious}>
          {back}
        </Button>
        <Button variant="secondary" size="sm" disabled={!onNext} onClick={onNext}>
          {forward}
        </Button>
      </div>
    </nav>
  );
}

/** Label / value pairs (a record's fields). */
export function Details({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-xs font-medium text-zinc-600">{k}</dt>
          <dd className="mt-0.5 break-words text-zinc-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Mono({ children, className }: { children: ReactNode; className?: string }) {
  return <span className={cn("font-mono text-xs break-all", className)}>{children}</span>;
}

/** The first stop of the keyboard: a link to the page's main content (`#main`), shown when focused. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      Skip to content
    </a>
  );
}

/** The link above a detail page back to its list ("← Sessions"). */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <p className="mb-3 text-sm">
      <Link href={href} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
        ← {children}
      </Link>
    </p>
  );
}
