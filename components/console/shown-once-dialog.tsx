"use client";
// A write whose answer holds a value shown only once (a new Access Key, an invitation link, a
// webhook signing secret): a form in a dialog, then the value with its copy button. The server
// keeps only a hash or a sealed copy, so closing the dialog loses the value for good.
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ShownOnce } from "../ui/misc";
import { ErrorState } from "../ui/states";
import { ConsoleApiError } from "./api";
import { FormDialog } from "./form-dialog";

/** What the second step shows of the write's answer. */
export interface ShownValue {
  title: string;
  description: ReactNode;
  value: string;
  testId: string;
  copyLabel: string;
  /** The closing button (default "I have stored it"). */
  doneLabel?: string;
  /** Shown above and below the value. */
  before?: ReactNode;
  after?: ReactNode;
  wide?: boolean;
}

export function ShownOnceDialog<R>({
  open,
  onClose,
  form,
  write,
  onWritten,
  reset,
  shown,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The first step: a form (its fields are the children) and the error title of a refused write. */
  form: {
    title: string;
    description: ReactNode;
    formId: string;
    submitLabel: string;
    pendingLabel: string;
    errorTitle: string;
    danger?: boolean;
    autoComplete?: "off";
  };
  write: () => Promise<R>;
  /** After a successful write (invalidations). */
  onWritten?: (result: R) => void;
  /** Clears the form's own fields when the dialog closes. */
  reset?: () => void;
  shown: (result: R) => ShownValue;
  /** The form's fields, given the API's field errors by field. */
  children: (fieldErrors: Record<string, string>) => ReactNode;
}) {
  const [result, setResult] = useState<{ value: R } | null>(null);
  const mutation = useMutation({
    mutationFn: write,
    onSuccess: (value) => {
      setResult({ value });
      onWritten?.(value);
    },
  });
  const close = () => {
    setResult(null);
    mutation.reset();
    reset?.();
    onClose();
  };
  if (result) {
    const v = shown(result.value);
    return (
      <Dialog
        open={open}
        onClose={close}
        title={v.title}
        description={v.description}
        footer={<Button onClick={close}>{v.doneLabel ?? "I have stored it"}</Button>}
        className={v.wide ? "max-w-xl" : undefined}
      >
        <div className="space-y-3">
          {v.before}
          <ShownOnce value={v.value} testId={v.testId} copyLabel={v.copyLabel} />
          {v.after}
        </div>
      </Dialog>
    );
  }
  const { errorTitle, ...dialog } = form;
  const fields = mutation.error instanceof ConsoleApiError ? mutation.error.fields : {};
  return (
    <FormDialog {...dialog} open={open} onClose={close} pending={mutation.isPending} onSubmit={() => mutation.mutate()}>
      {children(fields)}
      {mutation.error && !Object.keys(fields).length && <ErrorState error={mutation.error} title={errorTitle} />}
    </FormDialog>
  );
}
