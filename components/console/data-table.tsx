"use client";
// A column-driven table of a list page's rows: each column its header, its cell renderer and where
// it shows (`from`: hidden on a phone below that width), rows keyed by id. With `selected` and
// `onSelectedChange` a checkbox column selects rows, and its header selects every row of the page.
// The empty and loading states are ListResult's: DataTable draws only rows it is given.
import Link from "next/link";
import type { ReactNode } from "react";
import { RowAction } from "../ui/button";
import { cn } from "../ui/cn";
import { ShortId } from "./short-id";
import { Table, TBody, Td, Tr, type Column } from "../ui/table";

const SHOWN_FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell", lg: "hidden lg:table-cell" };

export interface DataColumn<R> {
  header: string;
  /** The header as shown, when not its text (the text stays its accessible name). */
  headerLabel?: ReactNode;
  cell: (row: R) => ReactNode;
  /** Classes of the column's cells and header (alignment, widths, wrapping). */
  className?: string;
  /** Shown from this width on: hidden on a phone. */
  from?: keyof typeof SHOWN_FROM;
  /** Left out (e.g. an admin's column for support). */
  hidden?: boolean;
}

export interface DataTableProps<R> {
  /** The table's accessible name ("Runs"). */
  label: string;
  columns: DataColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  /** Attributes of a row (data-* for tests, a highlight). */
  rowProps?: (row: R) => React.HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Row selection: the selected ids, and what to do when they change. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (next: Set<string>) => void;
  /** Every row is selected and the boxes are locked ("everything matching this filter"). */
  selectionLocked?: boolean;
  /** The name of a row's checkbox ("Select run run_…"). */
  rowLabel?: (row: R) => string;
  className?: string;
}

export function DataTable<R>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  selected,
  onSelectedChange,
  selectionLocked,
  rowLabel,
  className,
}: DataTableProps<R>) {
  const shown = columns.filter((c) => !c.hidden);
  const selectable = Boolean(selected && onSelectedChange);
  const keys = rows.map(rowKey);
  const isSelected = (k: string) => Boolean(selectionLocked) || selected!.has(k);
  const allOnPage = selectable && keys.length > 0 && keys.every(isSelected);
  const someOnPage = selectable && keys.some(isSelected);
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onSelectedChange!(next);
  };
  const toggleAll = (on: boolean) => {
    const next = new Set(selected);
    for (const k of keys) {
      if (on) next.add(k);
      else next.delete(k);
    }
    onSelectedChange!(next);
  };
  const headings: Column[] = [
    selectable && {
      label: (
        <input
          type="checkbox"
          aria-label="Select every row on this page"
          className="size-4 accent-indigo-600"
          checked={allOnPage}
          disabled={selectionLocked}
          ref={(el) => {
            if (el) el.indeterminate = someOnPage && !allOnPage;
          }}
          onChange={(e) => toggleAll(e.target.checked)}
        />
      ),
      className: "w-8",
    },
    ...shown.map((c) => ({ label: c.headerLabel ?? c.header, from: c.from, className: c.className })),
  ];
  return (
    <Table label={label} columns={headings} className={className}>
      <TBody>
        {rows.map((row, i) => {
          const key = keys[i]!;
          return (
            <Tr key={key} {...rowProps?.(row)}>
              {selectable && (
                <Td className="w-8">
                  <input
                    type="checkbox"
                    aria-label={rowLabel?.(row) ?? `Select ${key}`}
                    className="size-4 accent-indigo-600"
                    checked={isSelected(key)}
                    disabled={selectionLocked}
                    onChange={(e) => toggle(key, e.target.checked)}
                  />
                </Td>
              )}
              {shown.map((c) => (
                <Td key={c.header} className={cn(c.from && SHOWN_FROM[c.from], c.className)}>
                  {c.cell(row)}
                </Td>
              ))}
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}

/** One action of a row: its button's label, what it does, and its accessible name (default: the label and the row's name). */
export interface RowActionItem {
  label: string;
  onClick: () => void;
  name?: string;
}

/** The last column: a row's actions (Download, Delete, ...), each named for its row ("Delete report.csv"). */
export function actionsColumn<R>(
  of: (row: R) => string,
  actions: (row: R) => (RowActionItem | false | null | undefined)[],
): DataColumn<R> {
  return {
    header: "Actions",
    headerLabel: <span className="sr-only">Actions</span>,
    className: "w-px text-right",
    cell: (row) => (
      <div className="flex flex-wrap justify-end gap-2">
        {actions(row)
          .filter((a): a is RowActionItem => Boolean(a))
          .map((a) => (
            <RowAction key={a.label} onClick={a.onClick} aria-label={a.name ?? `${a.label} ${of(row)}`}>
              {a.label}
            </RowAction>
          ))}
      </div>
    ),
  };
}

/** A row's main cell: the link to its page (named with its id for screen readers), its short id below. */
export function RowLink({ href, id, label, kind }: { href: string; id: string; label: string; kind: string }) {
  return (
    <>
      <Link
        href={href}
        className="font-medium [overflow-wrap:anywhere] text-indigo-700 hover:underline"
        aria-label={`${label}, ${kind} ${id}`}
      >
        {label}
      </Link>
      <div className="text-xs text-zinc-600">
        <ShortId id={id} />
      </div>
    </>
  );
}
