"use client";
// The body of a list page: a skeleton while the page loads, the error, the empty state (the caller
// says whether filters emptied it), or the rows with the pager under them.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Pager } from "../ui/misc";
import { ErrorState, SkeletonRows } from "../ui/states";

export function ListResult<D extends { has_more?: boolean }, R>({
  query,
  rows: rowsOf,
  loading,
  errorTitle,
  empty,
  pager,
  children,
}: {
  query: UseQueryResult<D>;
  /** The listed records of an answer. */
  rows: (data: D) => R[];
  /** The accessible name of the skeleton. */
  loading: string;
  errorTitle: string;
  empty: ReactNode;
  /** Offset paging (the offset usually kept in the URL); absent: one page holds everything. */
  pager?: { offset: number; limit: number; onChange: (offset: number) => void };
  children: (rows: R[]) => ReactNode;
}) {
  if (query.isPending) return <SkeletonRows label={loading} />;
  if (query.error) return <ErrorState error={query.error} title={errorTitle} />;
  const rows = rowsOf(query.data);
  if (rows.length === 0) return <>{empty}</>;
  return (
    <>
      {children(rows)}
      {pager && (
        <Pager
          offset={pager.offset}
          limit={pager.limit}
          hasMore={Boolean(query.data.has_more)}
          count={rows.length}
          onChange={pager.onChange}
        />
      )}
    </>
  );
}
