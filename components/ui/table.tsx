import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

/** Where a column starts to show: a phone shows only the columns without one. */
const SHOWN_FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell", lg: "hidden lg:table-cell" };

/**
 * A column's heading: its text, `[text, "md"]` for a column shown from that width on, or the long
 * form; false or null leaves the column out (an admin's actions).
 */
export type Column =
  | string
  | [label: string, from: keyof typeof SHOWN_FROM]
  | { label: ReactNode; from?: keyof typeof SHOWN_FROM; className?: string }
  | false
  | null;

function Heading({ column }: { column: Exclude<Column, false | null> }) {
  if (typeof column === "string") return <Th>{column}</Th>;
  const c = Array.isArray(column) ? { label: column[0], from: column[1] } : column;
  return <Th className={cn(c.from && SHOWN_FROM[c.from], "className" in c && c.className)}>{c.label}</Th>;
}

/**
 * A table that scrolls sideways inside its card on narrow screens instead of breaking the page;
 * `columns` are its headings, the children its body.
 */
export function Table({
  label,
  columns,
  children,
  className,
}: {
  label: string;
  columns?: Column[];
  children: ReactNode;
  className?: string;
}) {
  return (
    // Focusable: a table wider than a phone scrolls sideways, and a keyboard must reach that scroll.
    <div tabIndex={0} className={cn("overflow-x-auto rounded-lg bg-white ring-1 ring-zinc-200", className)}>
      <table aria-label={label} className="min-w-full divide-y divide-zinc-200 text-sm">
        {columns && (
          <THead>
            <Tr>{columns.map((c, i) => c && <Heading key={i} column={c} />)}</Tr>
          </THead>
        )}
        {children}
      </table>
    </div>
  );
}

export const THead = ({ children }: { children: ReactNode }) => (
  <thead className="bg-zinc-50 text-left text-xs font-semibold tracking-wide text-zinc-700 uppercase">{children}</thead>
);

export const TBody = ({ children }: { children: ReactNode }) => (
  <tbody className="divide-y divide-zinc-100">{children}</tbody>
);

export const Tr = ({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) => (
  <tr className={cn("align-top", className)} {...props} />
);

export const Th = ({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th scope="col" className={cn("px-3 py-2.5 whitespace-nowrap", className)} {...props} />
);

export const Td = ({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn("px-3 py-2.5", className)} {...props} />
);
