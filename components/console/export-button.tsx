"use client";
// "Export" in a list's header: a link to /exports with the list's kind and its current filters
// (from the URL), where "New export" opens prefilled (docs/console.md, Exports).
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { buttonClass } from "../ui/button";
import type { ExportKind } from "@/lib/exports/schemas";

/** The list filters an export takes (lib/exports/schemas.ts ExportFilters). */
const CARRIED = ["agent_id", "status", "user_id", "from", "to", "action"];

export function exportHref(kind: ExportKind, params: URLSearchParams | Record<string, string>): string {
  const from = params instanceof URLSearchParams ? params : new URLSearchParams(params);
  const to = new URLSearchParams({ kind });
  for (const k of CARRIED) {
    const v = from.get(k);
    if (v) to.set(k, v);
  }
  return `/exports?${to.toString()}`;
}

export function ExportButton({ kind, filters }: { kind: ExportKind; filters?: Record<string, string> }) {
  const sp = useSearchParams();
  return (
    <Link href={exportHref(kind, filters ?? sp)} className={buttonClass("secondary", "sm")}>
      Export
    </Link>
  );
}
