"use client";
// A list page: its header, its filters (kept in the URL by useUrlParams), and ListResult with the
// cursor pager; the empty state says whether the filters emptied the list, with a way to clear them.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { PageHeader } from "../ui/misc";
import { EmptyState } from "../ui/states";
import { ListResult, type CursorPage } from "./list-result";
import type { CursorPaging } from "./url-params";

/** A list's filter form (role search): its fields, and "Clear filters" while one is set. */
export function FilterBar({
  label,
  filtered,
  onClear,
  grid,
  children,
}: {
  /** The form's accessible name, e.g. "Filter runs". */
  label: string;
  filtered: boolean;
  onClear: () => void;
  /** Fields in a grid of up to four columns (else in a row that wraps). */
  grid?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      role="search"
      aria-label={label}
      className={cn(
        "mb-4 gap-3 rounded-lg bg-white p-4 ring-1 ring-zinc-200",
        grid ? "grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4" : "flex flex-wrap items-end",
      )}
      onSubmit={(e) => e.preventDefault()}
    >
      {children}
      {filtered && (
        <div className={grid ? "sm:col-span-2 lg:col-span-4" : "mb-1"}>
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      )}
    </form>
  );
}

export interface ListBodyProps<D extends CursorPage, R> {
  query: UseQueryResult<D>;
  rows: (data: D) => R[];
  /** The records' name in the plural ("runs"): the skeleton's, the error's and the empty states' words. */
  noun: string;
  paging: CursorPaging;
  filtered: boolean;
  onClear: () => void;
  /** Why the filters may have emptied the list (under "No runs match these filters"). */
  noMatch?: ReactNode;
  /** The empty state of an unfiltered list: how records come to be. */
  none: ReactNode;
  order?: "newest" | "position";
  children: (rows: R[]) => ReactNode;
}

/** ListResult of a filtered, cursor-paged list. */
export function ListBody<D extends CursorPage, R>({
  query,
  rows,
  noun,
  paging,
  filtered,
  onClear,
  noMatch,
  none,
  order,
  children,
}: ListBodyProps<D, R>) {
  return (
    <ListResult
      query={query}
      rows={rows}
      noun={noun}
      paging={paging}
      order={order}
      empty={
        filtered ? (
          <EmptyState
            title={`No ${noun} match these filters`}
            action={
              <Button variant="secondary" onClick={onClear}>
                Show all {noun}
              </Button>
            }
          >
            {noMatch}
          </EmptyState>
        ) : (
          none
        )
      }
    >
      {children}
    </ListResult>
  );
}

/** A whole list page: the header (its saved views, then its actions), a note, the filters, and the list. */
export function ListPage<D extends CursorPage, R>({
  title,
  description,
  views,
  actions,
  note,
  filters,
  ...body
}: ListBodyProps<D, R> & {
  title: string;
  description: ReactNode;
  /** The "Views" menu (components/console/saved-views.tsx). */
  views?: ReactNode;
  /** The header's buttons (export, a new record). */
  actions?: ReactNode;
  note?: ReactNode;
  filters?: ReactNode;
}) {
  const headerActions =
    views || actions ? (
      <div className="flex flex-wrap items-center gap-2">
        {views}
        {actions}
      </div>
    ) : undefined;
  return (
    <>
      <PageHeader title={title} description={description} actions={headerActions} />
      {note}
      {filters}
      <ListBody {...body} />
    </>
  );
}
