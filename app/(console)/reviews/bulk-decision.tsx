"use client";
// Deciding several inbox items at once: the bar of what is selected, the dialog that approves or
// rejects them with one reason (taking over others' claims only when asked), and the outcome of each.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { apiKey, request } from "@/components/console/use-api";
import { ReasonField } from "@/components/console/review-item";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CheckboxField } from "@/components/ui/field";
import type { BulkDecideResult as BulkDecision } from "@/lib/reviews/schemas";

export type BulkResolution = "approved" | "rejected";

export function SelectionBar({
  count,
  onBulk,
  onClear,
}: {
  count: number;
  onBulk: (resolution: BulkResolution) => void;
  onClear: () => void;
}) {
  return (
    <div
      role="region"
      aria-label="Selected items"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 p-3 text-sm ring-1 ring-indigo-200"
    >
      <span className="font-medium text-indigo-950">{count} selected</span>
      <Button size="sm" onClick={() => onBulk("approved")}>
        Approve selected
      </Button>
      <Button size="sm" variant="secondary" className="text-red-700" onClick={() => onBulk("rejected")}>
        Reject selected…
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}

export function BulkDialog({
  resolution,
  ids,
  onClose,
  onDone,
}: {
  resolution: BulkResolution | null;
  ids: string[];
  onClose: () => void;
  onDone: (result: BulkDecision) => void;
}) {
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const [takeOver, setTakeOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const bulk = useMutation({
    mutationFn: () =>
      request("POST /api/v1/organizations/[org_id]/reviews/bulk", {
        body: {
          exception_ids: ids,
          resolution: resolution!,
          reason: reason.trim() || undefined,
          take_over: takeOver,
        },
      }),
    onSuccess: (result) => {
      setReason("");
      setTakeOver(false);
      onDone(result);
    },
    onError: (e) => setError(e instanceof ConsoleApiError ? e.message : "The items could not be decided."),
    onSettled: () => qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/reviews") }),
  });
  const rejecting = resolution === "rejected";
  const n = ids.length;
  const noun = `${n} item${n === 1 ? "" : "s"}`;
  return (
    <Dialog
      open={resolution !== null}
      onClose={onClose}
      title={rejecting ? `Reject ${noun}` : `Approve ${noun}`}
      description={
        rejecting
          ? "Each selected item ends failed, with this reason. This cannot be undone."
          : "Each selected item continues through the remaining steps of its run."
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant={rejecting ? "danger" : "primary"}
            disabled={bulk.isPending}
            onClick={() => {
              if (rejecting && !reason.trim()) {
                setError("Say why these items are rejected: the reason is kept with each decision.");
                return;
              }
              setError(null);
              bulk.mutate();
            }}
          >
            {bulk.isPending ? "Deciding…" : rejecting ? `Yes, reject ${noun}` : `Approve ${noun}`}
          </Button>
        </>
      }
    >
      <ReasonField
        label={rejecting ? "Reason for rejecting" : "Reason (optional)"}
        error={error}
        hint="One reason for every selected item (up to 1,000 characters)."
        rows={3}
        value={reason}
        onValue={(r) => {
          setReason(r);
          setError(null);
        }}
      />
      <CheckboxField
        label="Take over items another member is reviewing (otherwise they are skipped)"
        className="mt-3"
        checked={takeOver}
        onChecked={setTakeOver}
      />
    </Dialog>
  );
}
