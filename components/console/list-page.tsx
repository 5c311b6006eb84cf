"use client";
// A list page: its header, its filters (kept in the URL by useUrlParams), and ListResult with the
// cursor pager; the empty state says whether the filters emptied the list, with a way to clear them.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { PageHeader } from "../ui/misc";
import { EmptyState } from "../ui/states";
import { ListResult, type CursorPage } from "./list-result";
import { ListFilters, type FilterField } from "./filter-bar";
import { SavedViews } from "./saved-views";
import type { CursorPaging } from "./url-params";
import type { ViewList } from "@/lib/views/schemas";

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

/** What FilteredListPage needs of useUrlParams: the filters, their changes and the paging. */
export interface UrlFilters {
  filters: Record<string, string>;
  set: Record<string, string>;
  filtered: boolean;
  paging: CursorPaging;
  update: (changes: Record<string, string>) => void;
  replace: (values: Record<string, string>) => void;
}

/**
 * A list page whose filters are the URL's (docs/console.md, "List filters"): the header with the
 * list's saved views (then `actions`, e.g. an export button), the filter fields, and the list;
 * clearing the filters puts each back to its default.
 */
export function FilteredListPage<D extends CursorPage, R>({
  list,
  url,
  fields,
  filterLabel,
  ...page
}: Omit<Parameters<typeof ListPage<D, R>>[0], "paging" | "filtered" | "onClear" | "views" | "filters"> & {
  list: ViewList;
  url: UrlFilters;
  fields: readonly FilterField[];
  /** The filter form's accessible name ("Filter runs"). */
  filterLabel: string;
}) {
  // Every filter back to its default.
  const clear = () => url.replace({});
  return (
    <ListPage
      {...page}
      views={<SavedViews list={list} current={url.set} onApply={url.replace} />}
      filters={
        <ListFilters
          label={filterLabel}
          fields={fields}
          values={url.filters}
          onChange={url.update}
          filtered={url.filtered}
          onClear={clear}
        />
      }
      paging={url.paging}
      filtered={url.filtered}
      onClear={clear}
    />
  );
}
