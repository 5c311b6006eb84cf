"use client";
// Items waiting for a person: approve (the item continues), edit and approve (it continues with
// the edited data), or reject (it ends failed, with a reason, after a confirmation). Resolving the
// last one of a needs_review run resumes the run by itself; the page's polling shows it. An item
// another member claimed in the review inbox shows who; deciding it here takes it over. Below, the
// run's review trail: who decided what, when, why, and an edit's changes (docs/console.md, Reviews).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { formatDate, relative, timeLeft } from "@/components/console/format";
import { apiKey, request } from "@/components/console/use-api";
import {
  DECIDED,
  DecisionButtons,
  ReasonField,
  ReviewItemData,
  ReviewItemSummary,
} from "@/components/console/review-item";
import { statusLabel } from "@/components/ui/badge";
import { ConfirmDialog, Dialog, DialogActions } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { Resolution } from "@/lib/runs/schemas";
import type { Approval } from "../shared";

/** Runs whose approvals can still be resolved (the server refuses the others). */
const RESOLVABLE_IN = ["pending", "running", "paused", "needs_review"];

/** The queue shows the first items (in item order); the rest follow as these are resolved. */
const SHOWN = 50;

const itemName = (a: Approval) => (a.index == null ? `item ${a.item_id}` : `item ${a.index}`);

function EditDialog({
  approval,
  onClose,
  onSubmit,
  pending,
  serverError,
}: {
  approval: Approval | null;
  onClose: () => void;
  onSubmit: (data: unknown) => void;
  pending: boolean;
  serverError: string | null;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [forId, setForId] = useState<string | null>(null);
  // Prefill with the item's data each time the dialog opens.
  if (approval && forId !== approval.exception_id) {
    setForId(approval.exception_id);
    setText(JSON.stringify(approval.data, null, 2));
    setError(null);
  } else if (!approval && forId !== null) {
    setForId(null);
  }
  return (
    <Dialog
      open={Boolean(approval)}
      onClose={onClose}
      title={approval ? `Edit & approve ${itemName(approval)}` : "Edit & approve"}
      description="The item continues through the remaining steps with this data instead of the original."
      footer={
        <DialogActions
          onCancel={onClose}
          label="Approve with changes"
          pendingLabel="Saving…"
          pending={pending}
          type="submit"
          form="edit-approve"
        />
      }
    >
      <form
        id="edit-approve"
        onSubmit={(e) => {
          e.preventDefault();
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch (err) {
            setError(`Not valid JSON: ${(err as Error).message}`);
            return;
          }
          setError(null);
          onSubmit(parsed);
        }}
      >
        <TextareaField
          label="Item data (JSON)"
          error={error ?? serverError ?? undefined}
          hint="Checked here before it is sent; the step that asked for review is not run again."
          rows={12}
          spellCheck={false}
          areaClassName="font-mono text-xs"
          value={text}
          onValue={(t) => {
            setText(t);
            setError(null);
          }}
        />
      </form>
    </Dialog>
  );
}

function RejectDialog({
  approval,
  onClose,
  onSubmit,
  pending,
}: {
  approval: Approval | null;
  onClose: () => void;
  onSubmit: (reason: string) => void;
  pending: boolean;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [forId, setForId] = useState<string | null>(null);
  if (approval && forId !== approval.exception_id) {
    setForId(approval.exception_id);
    setReason("");
    setError(null);
  }
  return (
    <ConfirmDialog
      open={Boolean(approval)}
      onClose={onClose}
      title={approval ? `Reject ${itemName(approval)}?` : "Reject"}
      description="The item ends failed and will not run again. Say why: the reason is kept with the decision."
      confirmLabel="Reject item"
      pendingLabel="Rejecting…"
      pending={pending}
      onConfirm={() => {
        const r = reason.trim();
        if (!r) return setError("Say why this item is rejected.");
        onSubmit(r);
      }}
    >
      <ReasonField
        error={error}
        hint="Required, up to 1,000 characters."
        rows={3}
        value={reason}
        onValue={(r) => {
          setReason(r);
          setError(null);
        }}
      />
    </ConfirmDialog>
  );
}

/** The run's review trail: each decision with who, when, why and an edit's changes. */
export function Decisions({ decisions }: { decisions: Approval[] }) {
  if (decisions.length === 0) return null;
  return (
    <div className="mt-4">
      <h3 className="mb-2 text-sm font-semibold text-zinc-900">Decided</h3>
      <ul aria-label="Review decisions" className="space-y-2">
        {decisions.map((d) => (
          <li key={d.exception_id} className="rounded-md bg-white p-3 text-sm ring-1 ring-zinc-200">
            <p className="break-words text-zinc-900">
              <span className="font-medium capitalize">{itemName(d)}</span>:{" "}
              {d.resolution ? DECIDED[d.resolution] : "Decided"} by {d.resolved_by ?? "someone"}
              {d.resolved_at && (
                <>
                  {" "}
                  <time dateTime={d.resolved_at} title={formatDate(d.resolved_at)}>
                    {relative(d.resolved_at)}
                  </time>
                </>
              )}
            </p>
            {d.reason && <p className="mt-1 break-words text-zinc-700">Reason: {d.reason}</p>}
            {d.diff && d.diff.length > 0 && (
              <ul aria-label={`Changes to ${itemName(d)}`} className="mt-1 font-mono text-xs break-all text-zinc-700">
                {d.diff.map((c) => (
                  <li key={c.path}>
                    {c.path}: {JSON.stringify(c.before)} → {JSON.stringify(c.after)}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ReviewQueue({
  runId,
  runStatus,
  approvals,
  decisions,
}: {
  runId: string;
  runStatus: string;
  approvals: Approval[];
  decisions: Approval[];
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<Approval | null>(null);
  const [rejecting, setRejecting] = useState<Approval | null>(null);
  const resolve = useMutation({
    mutationFn: (v: { approval: Approval; resolution: Resolution; modified_data?: unknown; reason?: string }) =>
      request("POST /api/v1/organizations/[org_id]/runs/[run_id]/approvals/resolve", {
        params: { run_id: runId },
        body: {
          exception_id: v.approval.exception_id,
          resolution: v.resolution,
          ...(v.resolution === "modified" ? { modified_data: v.modified_data } : {}),
          ...(v.reason ? { reason: v.reason } : {}),
          // Deciding on the run page is deliberate: an inbox claim is taken over (and audited).
          take_over: true,
        },
      }),
    onSuccess: (answer, v) => {
      toast({
        tone: "success",
        message: `${DECIDED[v.resolution]}: ${itemName(v.approval)}`,
        detail: answer.resumed
          ? "That was the last one: the run resumes."
          : answer.all_resolved
            ? "Nothing else waits for review."
            : undefined,
      });
      setEditing(null);
      setRejecting(null);
    },
    onError: (e, v) => {
      if (v.resolution === "modified" && e instanceof ConsoleApiError && e.code === "invalid_request") return;
      toast({
        tone: "error",
        message: e instanceof ConsoleApiError ? e.message : `${itemName(v.approval)} could not be resolved`,
        detail: e instanceof ConsoleApiError && e.requestId ? `request id ${e.requestId}` : undefined,
      });
      setEditing(null);
      setRejecting(null);
    },
    onSettled: () =>
      qc.invalidateQueries({
        queryKey: apiKey("GET /api/v1/organizations/[org_id]/runs/[run_id]", { params: { run_id: runId } }),
      }),
  });
  const resolvable = RESOLVABLE_IN.includes(runStatus);
  const editError =
    resolve.isError && resolve.error instanceof ConsoleApiError && resolve.variables?.resolution === "modified"
      ? resolve.error.message
      : null;

  if (approvals.length === 0) {
    return (
      <>
        <EmptyState title="Nothing waits for review">
          Items stopped by a review step, or by an unexpected step error, show up here for a person to approve or
          reject.
        </EmptyState>
        <Decisions decisions={decisions} />
      </>
    );
  }
  return (
    <>
      {!resolvable && (
        <p className="mb-3 rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
          This run is {statusLabel(runStatus)}: its waiting items can no longer be resolved.
        </p>
      )}
      <ul className="space-y-3">
        {approvals.slice(0, SHOWN).map((a) => {
          const busy = resolve.isPending && resolve.variables?.approval.exception_id === a.exception_id;
          const name = itemName(a);
          return (
            <li
              key={a.exception_id}
              aria-label={`Review ${name}`}
              className="rounded-md bg-amber-50/40 p-3 ring-1 ring-amber-200"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <ReviewItemSummary name={name} item={a} className="capitalize" />
                  {a.claimed_by && a.claimed_until && (
                    <p className="mt-1 text-sm font-medium break-words text-amber-900">
                      Being reviewed by {a.claimed_by} ({timeLeft(a.claimed_until)}); deciding here takes it over.
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap gap-2">
                  <DecisionButtons
                    name={name}
                    order="approve-first"
                    size="sm"
                    disabled={!resolvable || resolve.isPending}
                    pending={busy ? resolve.variables.resolution : null}
                    onApprove={() => resolve.mutate({ approval: a, resolution: "approved" })}
                    onEdit={() => {
                      resolve.reset();
                      setEditing(a);
                    }}
                    onReject={() => {
                      resolve.reset();
                      setRejecting(a);
                    }}
                  />
                </div>
              </div>
              <ReviewItemData data={a.data} className="mt-2 max-h-48 bg-white" />
            </li>
          );
        })}
      </ul>
      {approvals.length > SHOWN && (
        <p className="mt-3 text-sm text-zinc-700">
          {approvals.length - SHOWN} more wait below these; they appear here as these are resolved.
        </p>
      )}
      <RejectDialog
        approval={rejecting}
        onClose={() => setRejecting(null)}
        pending={resolve.isPending}
        onSubmit={(reason) => rejecting && resolve.mutate({ approval: rejecting, resolution: "rejected", reason })}
      />
      <Decisions decisions={decisions} />
      <EditDialog
        approval={editing}
        onClose={() => setEditing(null)}
        pending={resolve.isPending}
        serverError={editError}
        onSubmit={(data) =>
          editing && resolve.mutate({ approval: editing, resolution: "modified", modified_data: data })
        }
      />
    </>
  );
}
