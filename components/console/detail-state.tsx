"use client";
// A record page's states before its record shows: a skeleton while it loads, "not found" (with the
// way back to its list) when the organization has no such record, else the error with its request id.
import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClass } from "../ui/button";
import { Mono } from "../ui/misc";
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from "../ui/states";
import { ConsoleApiError } from "./api";

export function DetailState({
  query,
  noun,
  id,
  notFound,
  list,
}: {
  /** The record's query, while it has no data. */
  query: Pick<UseQueryResult, "isPending" | "error">;
  /** "run": the words of the states ("Loading the run", "Run not found"). */
  noun: string;
  id: string;
  /** The error code of a record the organization does not have (`run_not_found`). */
  notFound: string;
  /** The list of such records: "All runs" at /runs. */
  list: { href: string; label: string };
}) {
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
