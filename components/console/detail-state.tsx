"use client";
// A record page's states before its record shows: a skeleton while it loads, "not found" (with the
// way back to its list) when the organization has no such record, else the error with its request id.
import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClass } from "../ui/button";
import { Mono } from "../ui/misc";
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from "../ui/states";
import { ConsoleApiError } from "./api";

/** Each record page's record: the error code of one the organization lacks, and its list. */
const RECORDS = {
  run: { notFound: "run_not_found", list: { href: "/runs", label: "All runs" } },
  delivery: { notFound: "delivery_not_found", list: { href: "/webhooks", label: "All deliveries" } },
  "bulk action": { notFound: "bulk_action_not_found", list: { href: "/runs", label: "All runs" } },
  session: { notFound: "session_not_found", list: { href: "/sessions", label: "All sessions" } },
  key: { notFound: "access_key_not_found", list: { href: "/keys", label: "All keys" } },
  agent: { notFound: "agent_not_found", list: { href: "/agents", label: "All agents" } },
} as const;

export function DetailState({
  query,
  of: noun,
  id,
}: {
  /** The record's query, while it has no data. */
  query: Pick<UseQueryResult, "isPending" | "error">;
  /** Which record: the words of the states ("Loading the run", "Run not found"). */
  of: keyof typeof RECORDS;
  id: string;
}) {
  const { notFound, list } = RECORDS[noun];
  if (query.isPending || !query.error) {
    return (
      <div className="space-y-4">
        <Skeleton className="h-8 w-64 max-w-full" />
        <SkeletonRows rows={4} label={`Loading the ${noun}`} />
      </div>
    );
  }
  if (query.error instanceof ConsoleApiError && query.error.code === notFound) {
    return (
      <EmptyState
        title={`${noun[0]!.toUpperCase()}${noun.slice(1)} not found`}
        action={
          <Link href={list.href} className={buttonClass("secondary")}>
            {list.label}
          </Link>
        }
      >
        There is no {noun} <Mono>{id}</Mono> in this organization. Check the id, or switch organization.
      </EmptyState>
    );
  }
  return <ErrorState error={query.error} title={`The ${noun} could not be loaded`} />;
}

/** A record page's way back: its list, then the record's id ("Runs / run_…"). */
export function Breadcrumb({ list, id }: { list: { href: string; label: string }; id: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link href={list.href} className="text-indigo-700 underline hover:text-indigo-900">
        {list.label}
      </Link>{" "}
      <span aria-hidden className="text-zinc-400">
        /
      </span>{" "}
      <Mono className="text-zinc-600">{id}</Mono>
    </nav>
  );
}
