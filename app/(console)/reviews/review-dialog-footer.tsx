"use client";
// The review dialog's buttons in each of its modes: viewing (close, approve, edit, reject), editing
// the data (back, approve with changes) and rejecting (back, reject, then confirm).
import { DecisionButtons } from "@/components/console/review-item";
import { Button } from "@/components/ui/button";

export type Mode = "view" | "edit" | "reject";

export function ReviewDialogFooter(p: {
  mode: Mode;
  /** The member holds the item's claim: only then may they decide it. */
  holding: boolean;
  busy: boolean;
  /** A decision is being sent. */
  pending: boolean;
  confirming: boolean;
  onClose: () => void;
  onApprove: () => void;
  onEdit: () => void;
  onReject: () => void;
  onBack: () => void;
  onSubmitEdit: () => void;
  onSubmitReject: () => void;
}) {
  if (p.mode === "view")
    return (
      <>
        <Button variant="secondary" onClick={p.onClose}>
          Close
        </Button>
        <DecisionButtons
          order="approve-last"
          disabled={!p.holding || p.busy}
          pending={p.pending ? "approved" : null}
          onApprove={p.onApprove}
          onEdit={p.onEdit}
          onReject={p.onReject}
        />
      </>
    );
  if (p.mode === "edit")
    return (
      <>
        <Button variant="secondary" onClick={p.onBack}>
          Back
        </Button>
        <Button disabled={p.busy} onClick={p.onSubmitEdit}>
          {p.pending ? "Saving…" : "Approve with changes"}
        </Button>
      </>
    );
  return (
    <>
      <Button variant="secondary" onClick={p.onBack}>
        Back
      </Button>
      <Button variant="danger" disabled={p.busy} onClick={p.onSubmitReject}>
        {p.pending ? "Rejecting…" : p.confirming ? "Yes, reject this item" : "Reject"}
      </Button>
    </>
  );
}
