"use client";
// "Are you sure?" bound to one write on one target (archive, revoke, delete, remove): Cancel, a
// danger button that runs the write, and the write's error under the dialog's content. Closing
// forgets a failed attempt, so the next target starts clean.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorState } from "../ui/states";
import { useToast } from "../ui/toast";

/** A write's verb: its button, its pending label and the past tense of its error title. */
const VERBS = {
  archive: ["Archive", "Archiving…", "archived"],
  cancel: ["Cancel", "Cancelling…", "cancelled"],
  complete: ["Complete", "Completing…", "completed"],
  delete: ["Delete", "Deleting…", "deleted"],
  discard: ["Discard", "Discarding…", "discarded"],
  publish: ["Publish", "Publishing…", "published"],
  remove: ["Remove", "Removing…", "removed"],
  restore: ["Restore", "Restoring…", "restored"],
  revoke: ["Revoke", "Revoking…", "revoked"],
  rollBack: ["Roll back", "Rolling back…", "rolled back"],
  save: ["Save", "Saving…", "saved"],
} as const;

export function ConfirmWrite<T, R>({
  target,
  onClose,
  title,
  description,
  verb,
  noun,
  write,
  onDone,
  done,
  invalidates,
  disabled,
  children,
}: {
  /** What the write acts on; null: the dialog is closed. */
  target: T | null;
  onClose: () => void;
  title: string;
  description: ReactNode;
  /** The button says "Delete rule", its error "The rule was not deleted". */
  verb: keyof typeof VERBS;
  noun: string;
  write: (target: T) => Promise<R>;
  /** After a successful write, before the dialog closes (what `done` and `invalidates` do not say). */
  onDone?: (result: R, target: T) => void;
  /** The success toast of a write. */
  done?: (result: R, target: T) => { message: string; detail?: string };
  /** The lists and records the write changes. */
  invalidates?: (target: T) => QueryKey[];
  disabled?: boolean;
  children?: ReactNode;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [confirmLabel, pendingLabel, past] = VERBS[verb];
  const mutation = useMutation({
    mutationFn: write,
    onSuccess: (result, t) => {
      onDone?.(result, t);
      if (done) toast({ tone: "success", ...done(result, t) });
      for (const queryKey of invalidates?.(t) ?? []) void qc.invalidateQueries({ queryKey });
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={target !== null}
      onClose={close}
      title={title}
      description={description}
      confirmLabel={`${confirmLabel} ${noun}`}
      pendingLabel={pendingLabel}
      pending={mutation.isPending}
      disabled={disabled}
      onConfirm={() => target !== null && mutation.mutate(target)}
    >
      {children}
      {mutation.error && (
        <ErrorState
          className={children ? "mt-3" : undefined}
          error={mutation.error}
          title={`The ${noun} was not ${past}`}
        />
      )}
    </ConfirmDialog>
  );
}
