"use client";
// Deciding one inbox item: opening it claims it for 15 minutes (docs/console.md, Reviews). Someone
// else's claim is shown with a way to take it over; then approve, edit and approve (the JSON editor,
// checked before it is sent), or reject (a reason, then a confirmation).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { timeLeft } from "@/components/console/format";
import { JsonEditor, parseJson, type JsonLineError } from "@/components/console/json-editor";
import { reviewRequests, reviewsKey, type ReviewItem } from "@/components/console/queries";
import { DECIDED, DecisionButtons, ReasonField, ReviewItemData, type Decision } from "@/components/console/review-item";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";

export const itemLabel = (r: { agent_name: string; index: number | null; item_id: string }) =>
  `${r.agent_name} item ${r.index ?? r.item_id}`;

type Mode = "view" | "edit" | "reject";

export function ReviewDialog({ item, onClose }: { item: ReviewItem | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<Mode>("view");
  const [text, setText] = useState("");
  const [jsonError, setJsonError] = useState<JsonLineError | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const claim = useMutation({
    mutationFn: (v: { id: string; takeOver: boolean }) => reviewRequests.claim(v.id, v.takeOver),
    onSettled: () => qc.invalidateQueries({ queryKey: reviewsKey() }),
  });
  const claimItem = claim.mutate;
  const resetClaim = claim.reset;
  const openId = item?.exception_id ?? null;
  useEffect(() => {
    if (!openId) return;
    setMode("view");
    setReason("");
    setReasonError(null);
    setConfirming(false);
    setJsonError(null);
    resetClaim();
    claimItem({ id: openId, takeOver: false });
  }, [openId, claimItem, resetClaim]);
  const decide = useMutation({
    mutationFn: (v: { resolution: Decision; modified_data?: unknown; reason?: string }) =>
      reviewRequests.resolve(item!.exception_id, v),
    onSuccess: (answer, v) => {
      toast({
        tone: "success",
        message: `${DECIDED[v.resolution]}: ${itemLabel(item!)}`,
        detail: answer.resumed ? "That was the run's last one: it resumes." : undefined,
      });
      onClose();
    },
    onSettled: () => qc.invalidateQueries({ queryKey: reviewsKey() }),
  });
  if (!item) return <Dialog open={false} onClose={onClose} title="Review" />;

  const claimError = claim.error instanceof ConsoleApiError ? claim.error : null;
  const byOther = claimError?.code === "approval_claimed";
  const holding = claim.isSuccess;
  const decideError = decide.error instanceof ConsoleApiError ? decide.error : null;
  const busy = decide.isPending || claim.isPending;

  const submitEdit = () => {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      setJsonError(parsed.error);
      return;
    }
    decide.mutate({ resolution: "modified", modified_data: parsed.value });
  };
  const submitReject = () => {
    const r = reason.trim();
    if (!r) {
      setReasonError("Say why this item is rejected: the reason is kept with the decision.");
      return;
    }
    if (r.length > 1000) {
      setReasonError("Keep the reason under 1,000 characters.");
      return;
    }
    if (!confirming) {
      setConfirming(true);
      return;
    }
    decide.mutate({ resolution: "rejected", reason: r });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Review ${itemLabel(item)}`}
      description={
        <>
          Run <span className="font-mono">{item.run_id}</span>
          {item.step_id ? `, step ${item.step_id}` : ""}: {item.error ?? "waiting for review"}
        </>
      }
      className="max-w-2xl"
      footer={
        mode === "view" ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <DecisionButtons
              order="approve-last"
              disabled={!holding || busy}
              pending={decide.isPending ? "approved" : null}
              onApprove={() => decide.mutate({ resolution: "approved" })}
              onEdit={() => {
                setText(JSON.stringify(item.data, null, 2));
                setMode("edit");
              }}
              onReject={() => setMode("reject")}
            />
          </>
        ) : mode === "edit" ? (
          <>
            <Button variant="secondary" onClick={() => setMode("view")}>
              Back
            </Button>
            <Button disabled={busy} onClick={submitEdit}>
              {decide.isPending ? "Saving…" : "Approve with changes"}
            </Button>
          </>
        ) : (
          <>
            <Button
              variant="secondary"
              onClick={() => {
                setConfirming(false);
                setMode("view");
              }}
            >
              Back
            </Button>
            <Button variant="danger" disabled={busy} onClick={submitReject}>
              {decide.isPending ? "Rejecting…" : confirming ? "Yes, reject this item" : "Reject"}
            </Button>
          </>
        )
      }
    >
      {claim.isPending && <p className="mb-3 text-sm text-zinc-700">Claiming this item for you…</p>}
      {holding && (
        <p className="mb-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" role="status">
          You are reviewing this item ({timeLeft(claim.data.claimed_until ?? new Date().toISOString())}). Others see it
          as being reviewed by you.
        </p>
      )}
      {byOther && (
        <div
          className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
          role="alert"
        >
          <p>
            Being reviewed by {String(claimError.details?.claimed_by ?? "another member")}. You can decide it only if
            you take it over; they will no longer be able to decide it.
          </p>
          <Button
            size="sm"
            className="mt-2"
            disabled={claim.isPending}
            onClick={() => claim.mutate({ id: item.exception_id, takeOver: true })}
          >
            Take over
          </Button>
        </div>
      )}
      {claimError && !byOther && (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {claimError.message}
        </p>
      )}
      {decideError && (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {decideError.message}
        </p>
      )}
      {mode === "edit" ? (
        <JsonEditor
          label="Item data (JSON)"
          value={text}
          rows={12}
          onChange={(t) => {
            setText(t);
            if (jsonError) setJsonError(null);
          }}
          errors={jsonError ? [jsonError] : []}
          hint="The item continues through the remaining steps with this data; the change is kept with the decision."
        />
      ) : mode === "reject" ? (
        <ReasonField
          error={reasonError}
          hint={
            confirming
              ? "The item ends failed and will not run again. Press “Yes, reject this item” to confirm."
              : "Required. Shown on the item, in the run's review trail and in the approvals API."
          }
          rows={4}
          value={reason}
          onValue={(r) => {
            setReason(r);
            setConfirming(false);
            setReasonError(null);
          }}
        />
      ) : (
        <ReviewItemData data={item.data} className="max-h-80 bg-zinc-50" />
      )}
    </Dialog>
  );
}
