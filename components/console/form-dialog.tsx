"use client";
// A dialog around one form (mint a key, invite a member, set a secret): Cancel, and a submit button
// that sends the form while its write is pending. The form's fields and errors are the children.
import type { ReactNode } from "react";
import { ActionDialog } from "../ui/dialog";

export function FormDialog({
  formId,
  submitLabel,
  pendingLabel,
  pending,
  disabled,
  onSubmit,
  autoComplete,
  danger,
  children,
  ...dialog
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  /** The form's id: the footer's submit button sits outside the form and names it. */
  formId: string;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The submit button is off (the content says why). */
  disabled?: boolean;
  onSubmit: () => void;
  autoComplete?: "off";
  /** The submit button warns (a write that breaks something, such as rotating a secret). */
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <ActionDialog
      {...dialog}
      action={{
        label: submitLabel,
        pendingLabel,
        pending,
        disabled,
        type: "submit",
        form: formId,
        variant: danger ? "danger" : "primary",
      }}
    >
      <form
        id={formId}
        className="space-y-4"
        autoComplete={autoComplete}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </ActionDialog>
  );
}
