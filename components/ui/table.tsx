import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

/** A table that scrolls sideways inside its card on narrow screens instead of breaking the page. */
export function Table({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("overflow-x-auto rounded-lg bg-white ring-1 ring-zinc-200", className)}>
      <table aria-label={label} className="min-w-full divide-y divide-zinc-200 text-sm">
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
