"use client";
// A dialog around one form (mint a key, invite a member, set a secret): Cancel, and a submit button
// that sends the form while its write is pending. The form's fields and errors are the children.
import type { ReactNode } from "react";
import { Dialog, DialogActions } from "../ui/dialog";

export function FormDialog({
  open,
  onClose,
  title,
  description,
  formId,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
  autoComplete,
  children,
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
  onSubmit: () => void;
  autoComplete?: "off";
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <DialogActions
          onCancel={onClose}
          label={submitLabel}
          pendingLabel={pendingLabel}
          pending={pending}
          type="submit"
          form={formId}
        />
      }
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
    </Dialog>
  );
}
