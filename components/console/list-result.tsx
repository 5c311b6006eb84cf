"use client";
// The body of a list page: a skeleton while the page loads, the error, the empty state (the caller
// says whether filters emptied it), or the rows with the cursor pager under them. On a later page
// (a cursor in the URL) the error and an empty page offer "First page": a stale or forged link
// never leaves a blank page (docs/console.md, "How the lists page").
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { Pager } from "../ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "../ui/states";
import type { CursorPaging } from "./url-params";

/** What a cursor-paged answer carries besides its rows. */
export interface CursorPage {
  has_more?: boolean;
  next_cursor?: string | null;
}

/** The answer's `next_cursor`, when it has one (a list answered whole has none). */
const nextCursorOf = (data: object): string | null =>
  "next_cursor" in data && typeof data.next_cursor === "string" ? data.next_cursor : null;

/** "21–40" when the page's number is known (the walk started at the first page), else nothing. */
export function rowRange(paging: CursorPaging, count: number): string | undefined {
  const { page } = paging.state;
  if (page === null || count === 0) return undefined;
  const from = (page - 1) * paging.limit + 1;
  return count === 1 ? String(from) : `${from}–${from + count - 1}`;
}

/** The pager under a page of rows, from the page's answer. */
export function CursorPager({
  paging,
  data,
  count,
  order = "newest",
}: {
  paging: CursorPaging;
  data: object;
  count: number;
  order?: "newest" | "position";
}) {
  const next = nextCursorOf(data);
  return (
    <Pager
      order={order}
      range={rowRange(paging, count)}
      onFirst={paging.state.cursor ? paging.first : undefined}
      onPrevious={paging.previous}
      onNext={next ? () => paging.next(next) : undefined}
    />
  );
}

export function ListResult<D extends object, R>({
  query,
  rows: rowsOf,
  noun,
  empty,
  paging,
  order,
  children,
}: {
  query: UseQueryResult<D>;
  /** The listed records of an answer. */
  rows: (data: D) => R[];
  /** The records' name in the plural ("keys"): the skeleton's and the error's words. */
  noun: string;
  empty: ReactNode;
  /** Cursor paging (kept in the URL, or by the component); absent: one page holds everything. */
  paging?: CursorPaging;
  /** Newest first (Newer / Older) or by position (Previous / Next). */
  order?: "newest" | "position";
  children: (rows: R[]) => ReactNode;
}) {
  if (query.isPending) return <SkeletonRows label={`Loading ${noun}`} />;
  const laterPage = Boolean(paging?.state.cursor);
  const firstPage = paging && laterPage && (
    <Button variant="secondary" size="sm" onClick={paging.first}>
      First page
    </Button>
  );
  if (query.error) {
    const title = `${noun[0]!.toUpperCase()}${noun.slice(1)} could not be loaded`;
    return <ErrorState error={query.error} title={title} action={firstPage} />;
  }
  const rows = rowsOf(query.data);
  if (rows.length === 0) {
    if (!laterPage) return <>{empty}</>;
    return (
      <EmptyState title="Nothing on this page" action={firstPage}>
        The rows this page started after are gone. Start again from the first page.
      </EmptyState>
    );
  }
  // The previous page's rows stay, dimmed and marked busy, until the next page arrives.
  const stale = query.isPlaceholderData;
  return (
    <div aria-busy={stale} className={stale ? "opacity-60 transition-opacity" : undefined}>
      {children(rows)}
      {paging && <CursorPager paging={paging} data={stale ? {} : query.data} count={rows.length} order={order} />}
    </div>
  );
}
