import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { cn } from "./cn";

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded-md bg-zinc-200", className)} />;
}

/** A view that reads the URL (useSearchParams) renders in the browser: placeholder rows until then. */
export function UrlView({ label, children }: { label: string; children: ReactNode }) {
  return <Suspense fallback={<SkeletonRows label={label} />}>{children}</Suspense>;
}

/** Placeholder rows while a list loads. */
export function SkeletonRows({ rows = 5, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2 rounded-lg bg-white p-4 ring-1 ring-zinc-200">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-6 w-full" />
      ))}
    </div>
  );
}

/** A list with nothing in it: what comes here, and what to do (`action`, or a `link` to another page). */
export function EmptyState({
  title,
  children,
  action,
  link,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  link?: { href: string; label: string };
}) {
  const shown = link ? (
    <Link href={link.href} className="text-sm font-medium text-indigo-700 hover:underline">
      {link.label}
    </Link>
  ) : (
    action
  );
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center">
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      {children && <div className="mx-auto mt-1 max-w-md text-sm text-zinc-600">{children}</div>}
      {shown && <div className="mt-4 flex justify-center">{shown}</div>}
    </div>
  );
}

/** An error from the API, with the request id support needs to find it in the logs. */
export function ErrorState({
  error,
  title = "Something went wrong",
  className,
  action,
}: {
  error: unknown;
  title?: string;
  className?: string;
  /** The way out (for example "First page" under a list whose page link no longer works). */
  action?: ReactNode;
}) {
  const e = error as { message?: string; requestId?: string; code?: string } | null;
  return (
    <div
      role="alert"
      className={cn("rounded-lg bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200", className)}
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5">{e?.message ?? "The request failed."}</p>
      {e?.requestId && (
        <p className="mt-1 font-mono text-xs">
          request id: <span className="select-all">{e.requestId}</span>
        </p>
      )}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}
