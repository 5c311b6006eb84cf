"use client";
// "Run again" (docs/console.md, Runs): a finished run's inputs in the JSON editor, sent as a trigger's
// would be (the server checks them against the workflow's declared inputs); the new run is linked to
// this one, and each run page names the other ("Rerun of …", "Reruns: …").
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { InputsEditor, useInputsEditor } from "@/components/console/inputs-editor";
import { apiKey, request } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Mono } from "@/components/ui/misc";
import { useToast } from "@/components/ui/toast";
import type { RunDetail } from "../shared";

const FINISHED = ["completed", "failed", "cancelled"];

export function RerunButton({ run }: { run: RunDetail }) {
  const [open, setOpen] = useState(false);
  if (!FINISHED.includes(run.status)) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Run again
      </Button>
      {open && <RerunDialog run={run} onClose={() => setOpen(false)} />}
    </>
  );
}

function RerunDialog({ run, onClose }: { run: RunDetail; onClose: () => void }) {
  const router = useRouter();
  const qc = useQueryClient();
  const toast = useToast();
  const rerun = useMutation({
    mutationFn: (inputs: Record<string, unknown>) =>
      request("POST /api/v1/organizations/[org_id]/runs/[run_id]/rerun", {
        params: { run_id: run.run_id },
        body: { inputs },
      }),
    onSuccess: (r) => {
      void qc.invalidateQueries({
        queryKey: apiKey("GET /api/v1/organizations/[org_id]/runs/[run_id]", { params: { run_id: run.run_id } }),
      });
      toast({ tone: "success", message: "Run started again", detail: r.run_id });
      router.push(`/runs/${r.run_id}`);
    },
  });
  const editor = useInputsEditor(() => JSON.stringify(run.inputs ?? {}, null, 2) + "\n", rerun, { resetOnEdit: true });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Run again"
      className="max-w-2xl"
      description={
        <>
          A new run of {run.agent_name} with these inputs, checked as a trigger&apos;s are. It is linked to{" "}
          <Mono>{run.run_id}</Mono>.
        </>
      }
      footer={
        <DialogActions
          onCancel={onClose}
          label="Start the run"
          pendingLabel="Starting…"
          pending={rerun.isPending}
          onClick={editor.submit}
        />
      }
    >
      <InputsEditor editor={editor} rows={10} hint="The original run's inputs: edit them before starting." />
    </Dialog>
  );
}

/** "Rerun of …" and "Reruns: …": the links between a run and the runs started again from it. */
export function RerunLinks({ run }: { run: RunDetail }) {
  if (!run.rerun_of && run.reruns.length === 0) return null;
  const link = "font-mono text-xs break-all text-indigo-700 underline-offset-2 hover:underline";
  return (
    <div className="mb-6 space-y-1 text-sm text-zinc-700" data-testid="rerun-links">
      {run.rerun_of && (
        <p>
          Rerun of{" "}
          <Link href={`/runs/${run.rerun_of}`} className={link}>
            {run.rerun_of}
          </Link>
        </p>
      )}
      {run.reruns.length > 0 && (
        <p>
          Reruns:{" "}
          {run.reruns.map((id, i) => (
            <span key={id}>
              {i > 0 && ", "}
              <Link href={`/runs/${id}`} className={link}>
                {id}
              </Link>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
