"use client";
// The four run controls (docs/workflows.md, States and transitions). Each button is enabled only when the server lists its action in
// the run's allowed_actions; the server refuses the others anyway (409 invalid_state_transition).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { apiKey, request } from "@/components/console/use-api";
import { statusLabel } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { CONTROLS, type Control, type RunDetail } from "../shared";

const LABEL: Record<Control, string> = { pause: "Pause", resume: "Resume", retry: "Retry", cancel: "Cancel" };
const HINT: Record<Control, string> = {
  pause: "Stop after the item in progress; resume later.",
  resume: "Continue with the first unfinished item.",
  retry: "Run the failed items again from the step that failed; completed items are kept.",
  cancel: "Stop the run for good; finished items are kept.",
};
/** Each control's route (POST .../runs/{run_id}/{action}). */
const ROUTE = {
  pause: "POST /api/v1/organizations/[org_id]/runs/[run_id]/pause",
  resume: "POST /api/v1/organizations/[org_id]/runs/[run_id]/resume",
  retry: "POST /api/v1/organizations/[org_id]/runs/[run_id]/retry",
  cancel: "POST /api/v1/organizations/[org_id]/runs/[run_id]/cancel",
} as const satisfies Record<Control, string>;
const RUN = "GET /api/v1/organizations/[org_id]/runs/[run_id]";
const DONE: Record<Control, string> = {
  pause: "Run paused",
  resume: "Run resumed",
  retry: "Run retried",
  cancel: "Run cancelled",
};

export function RunControls({ run }: { run: RunDetail }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const control = useMutation({
    mutationFn: (action: Control) => request(ROUTE[action], { params: { run_id: run.run_id } }),
    onSuccess: (next, action) => {
      qc.setQueryData(apiKey(RUN, { params: { run_id: run.run_id } }), next);
      toast({ tone: "success", message: DONE[action], detail: `The run is now ${statusLabel(next.status)}.` });
    },
    onError: (e, action) => {
      const refused = e instanceof ConsoleApiError && e.code === "invalid_state_transition";
      toast({
        tone: "error",
        message: refused ? e.message : `The run could not be ${DONE[action].slice(4)}`,
        detail: refused
          ? "Someone or something else changed the run; the page now shows its current state."
          : e instanceof ConsoleApiError
            ? `${e.message}${e.requestId ? ` (request id ${e.requestId})` : ""}`
            : undefined,
      });
      void qc.invalidateQueries({ queryKey: apiKey(RUN, { params: { run_id: run.run_id } }) });
    },
    onSettled: () => setConfirming(false),
  });
  return (
    <>
      <div role="group" aria-label="Run controls" className="flex flex-wrap gap-2">
        {CONTROLS.map((action) => {
          const allowed = run.allowed_actions.includes(action);
          return (
            <Button
              key={action}
              variant={action === "cancel" && allowed ? "danger" : "secondary"}
              disabled={!allowed || control.isPending}
              title={
                allowed
                  ? HINT[action]
                  : `${LABEL[action]} is not available while the run is ${statusLabel(run.status)}.`
              }
              onClick={() => (action === "cancel" ? setConfirming(true) : control.mutate(action))}
            >
              {control.isPending && control.variables === action ? `${LABEL[action]}…` : LABEL[action]}
            </Button>
          );
        })}
      </div>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Cancel this run?"
        description="The item in progress is stopped and no further item runs. Items already finished are kept. A cancelled run cannot be resumed or retried."
        footer={
          <DialogActions
            onCancel={() => setConfirming(false)}
            cancelLabel="Keep the run"
            label="Cancel run"
            pendingLabel="Cancelling…"
            pending={control.isPending}
            variant="danger"
            onClick={() => control.mutate("cancel")}
          />
        }
      />
    </>
  );
}
