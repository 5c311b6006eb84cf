"use client";
// The parts of an item waiting for review that the run page's review queue and the review inbox
// share (docs/console.md, Reviews): what stopped it, its data, the three decision buttons and the
// reason for rejecting.
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { TextareaField } from "@/components/ui/field";

export type Decision = "approved" | "modified" | "rejected";

/** How a decision is named in toasts and in the review trail. */
export const DECIDED: Record<Decision, string> = {
  approved: "Approved",
  rejected: "Rejected",
  modified: "Approved with changes",
};

/** The item's name, then the step that stopped it and why (`children` follow on the same line). */
export function ReviewItemSummary({
  name,
  item,
  className,
  children,
}: {
  name: string;
  item: { step_id: string | null; error: string | null };
  /** The name's extra classes. */
  className?: string;
  children?: ReactNode;
}) {
  return (
    <>
      <p className={cn("text-sm font-semibold text-zinc-900", className)}>{name}</p>
      <p className="mt-0.5 text-sm break-words text-zinc-800">
        {item.step_id && (
          <>
            <Badge tone="amber">step {item.step_id}</Badge>{" "}
          </>
        )}
        {item.error ?? "Waiting for review"}
        {children}
      </p>
    </>
  );
}

/** The item's data as formatted JSON; `className` sets its height and background. */
export function ReviewItemData({ data, className }: { data: unknown; className: string }) {
  return (
    <pre
      className={cn(
        "overflow-auto rounded p-2 font-mono text-xs break-all whitespace-pre-wrap text-zinc-800 ring-1 ring-zinc-200",
        className,
      )}
    >
      {JSON.stringify(data, null, 2)}
    </pre>
  );
}

/**
 * Approve, Edit & approve and Reject…, in `order`. With `name` each button says which item it
 * decides (a list of items); `pending` is the decision being sent.
 */
export function DecisionButtons({
  name,
  order,
  size,
  disabled,
  pending,
  onApprove,
  onEdit,
  onReject,
}: {
  name?: string;
  order: "approve-first" | "approve-last";
  size?: "sm";
  disabled: boolean;
  pending: Decision | null;
  onApprove: () => void;
  onEdit: () => void;
  onReject: () => void;
}) {
  const buttons = [
    { verb: "Approve", text: pending === "approved" ? "Approving…" : "Approve", onClick: onApprove },
    { verb: "Edit & approve", text: "Edit & approve", onClick: onEdit, secondary: true },
    { verb: "Reject", text: pending === "rejected" ? "Rejecting…" : "Reject…", onClick: onReject, secondary: true },
  ];
  if (order === "approve-last") buttons.reverse();
  return (
    <>
      {buttons.map((b) => (
        <Button
          key={b.verb}
          size={size}
          variant={b.secondary ? "secondary" : "primary"}
          aria-label={name ? `${b.verb} ${name}` : undefined}
          className={b.verb === "Reject" ? "text-red-700" : undefined}
          disabled={disabled}
          onClick={b.onClick}
        >
          {b.text}
        </Button>
      ))}
    </>
  );
}

/** The reason for rejecting (or for a decision on several items): required where it rejects. */
export function ReasonField({
  label = "Reason for rejecting",
  ...field
}: {
  label?: string;
  hint: ReactNode;
  error: string | null;
  rows: number;
  value: string;
  onValue: (reason: string) => void;
}) {
  return <TextareaField label={label} maxLength={1000} {...field} error={field.error ?? undefined} />;
}
