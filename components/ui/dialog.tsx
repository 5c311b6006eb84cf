"use client";
// A modal dialog on the native <dialog> element: the browser traps focus, Escape closes it, and
// focus returns to the opener.
import { useEffect, useId, useRef, type ComponentProps, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  className,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl bg-white p-0 text-zinc-900 shadow-xl ring-1 ring-zinc-200",
        className,
      )}
    >
      {open && (
        <div className="flex max-h-[85vh] flex-col">
          <div className="border-b border-zinc-200 px-5 py-4">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            {description && (
              <div id={descId} className="mt-1 text-sm text-zinc-600">
                {description}
              </div>
            )}
          </div>
          <div className="overflow-y-auto px-5 py-4">{children}</div>
          {footer && (
            <div className="flex flex-wrap justify-end gap-2 border-t border-zinc-200 px-5 py-3">{footer}</div>
          )}
        </div>
      )}
    </dialog>
  );
}

/** A dialog's footer: Cancel, and the button that acts, labelled for its pending state. */
export function DialogActions({
  onCancel,
  cancelLabel = "Cancel",
  label,
  pendingLabel,
  pending,
  disabled,
  ...button
}: {
  onCancel: () => void;
  cancelLabel?: string;
  label: string;
  pendingLabel: string;
  pending: boolean;
} & Omit<ComponentProps<typeof Button>, "children">) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button disabled={pending || disabled} {...button}>
        {pending ? pendingLabel : label}
      </Button>
    </>
  );
}

/** A dialog whose footer is Cancel and one acting button (`action`: its label, pending state, handler). */
export function ActionDialog({
  open,
  onClose,
  title,
  description,
  action,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  action: Omit<ComponentProps<typeof DialogActions>, "onCancel">;
  children?: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      footer={<DialogActions onCancel={onClose} {...action} />}
    >
      {children}
    </Dialog>
  );
}

/** "Are you sure?": Cancel, and a danger button that runs `onConfirm`; `children` shows its error. */
export function ConfirmDialog({
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
  disabled,
  ...dialog
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  /** Refuses the write for now (the content says why). */
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <ActionDialog
      {...dialog}
      action={{ label: confirmLabel, pendingLabel, pending, disabled, variant: "danger", onClick: onConfirm }}
    />
  );
}
