"use client";
// Deciding one inbox item: opening it claims it for 15 minutes (docs/console.md, Reviews). Someone
// else's claim is shown with a way to take it over; then approve, edit and approve (the JSON editor,
// checked before it is sent), or reject (a reason, then a confirmation).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { parseJson, type JsonLineError } from "@/components/console/json-editor";
import { apiKey, request } from "@/components/console/use-api";
import { DECIDED, type Decision } from "@/components/console/review-item";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import type { ReviewItem } from "@/lib/reviews/schemas";
import { ClaimStatus, useReviewClaim } from "./review-claim";
import { ReviewDialogBody } from "./review-dialog-body";
import { ReviewDialogFooter, type Mode } from "./review-dialog-footer";

export const itemLabel = (r: { agent_name: string; index: number | null; item_id: string }) =>
  `${r.agent_name} item ${r.index ?? r.item_id}`;

export function ReviewDialog({ item, onClose }: { item: ReviewItem | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<Mode>("view");
  const [text, setText] = useState("");
  const [jsonError, setJsonError] = useState<JsonLineError | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const openId = item?.exception_id ?? null;
  const claim = useReviewClaim(openId);
  useEffect(() => {
    if (!openId) return;
    setMode("view");
    setReason("");
    setReasonError(null);
    setConfirming(false);
    setJsonError(null);
  }, [openId]);
  const decide = useMutation({
    mutationFn: (v: { resolution: Decision; modified_data?: unknown; reason?: string }) =>
      request("POST /api/v1/organizations/[org_id]/reviews/[exception_id]/resolve", {
        params: { exception_id: item!.exception_id },
        body: v,
      }),
    onSuccess: (answer, v) => {
      toast({
        tone: "success",
        message: `${DECIDED[v.resolution]}: ${itemLabel(item!)}`,
        detail: answer.resumed ? "That was the run's last one: it resumes." : undefined,
      });
      onClose();
    },
    onSettled: () => qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/reviews") }),
  });
  if (!item) return <Dialog open={false} onClose={onClose} title="Review" />;

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
        <ReviewDialogFooter
          mode={mode}
          holding={holding}
          busy={busy}
          pending={decide.isPending}
          confirming={confirming}
          onClose={onClose}
          onApprove={() => decide.mutate({ resolution: "approved" })}
          onEdit={() => {
            setText(JSON.stringify(item.data, null, 2));
            setMode("edit");
          }}
          onReject={() => setMode("reject")}
          onBack={() => {
            setConfirming(false);
            setMode("view");
          }}
          onSubmitEdit={submitEdit}
          onSubmitReject={submitReject}
        />
      }
    >
      <ClaimStatus claim={claim} exceptionId={item.exception_id} />
      {decideError && (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {decideError.message}
        </p>
      )}
      <ReviewDialogBody
        mode={mode}
        data={item.data}
        text={text}
        onText={(t) => {
          setText(t);
          if (jsonError) setJsonError(null);
        }}
        jsonError={jsonError}
        reason={reason}
        onReason={(r) => {
          setReason(r);
          setConfirming(false);
          setReasonError(null);
        }}
        reasonError={reasonError}
        confirming={confirming}
      />
    </Dialog>
  );
}
