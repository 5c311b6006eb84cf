"use client";
// A table row's actions (Archive, Revoke, Replace, Delete, ...): the heading that names the column
// for screen readers, and the row's last cell with a small button per action, each named
// for its row ("Revoke billing-backend").
import { RowAction } from "../ui/button";
import { Td, type Column } from "../ui/table";

export interface RowActionItem {
  label: string;
  onClick: () => void;
  /** The button's accessible name; default: the label and the row's name. */
  name?: string;
}

/** The heading of the actions column (a Table column). */
export const ACTIONS: Column = { label: <span className="sr-only">Actions</span> };

/** The actions of the row named `of`; an action that does not apply is left out (false, null). */
export function RowActions({ of, actions }: { of: string; actions: (RowActionItem | false | null | undefined)[] }) {
  const shown = actions.filter((a): a is RowActionItem => Boolean(a));
  return (
    <Td className="w-px text-right">
      <div className="flex flex-wrap justify-end gap-2">
        {shown.map((a) => (
          <RowAction key={a.label} onClick={a.onClick} aria-label={a.name ?? `${a.label} ${of}`}>
            {a.label}
          </RowAction>
        ))}
      </div>
    </Td>
  );
}
