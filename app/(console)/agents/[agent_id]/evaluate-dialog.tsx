"use client";
// "Evaluate draft" / "Evaluate a version on these" (docs/console.md, Evaluations): the settings, then
// the server's dry run (cases, model calls, http calls, tokens, estimated cost), then "Start
// evaluation", whose progress shows live (polled every second) with a link to its page.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { formatCost, formatNumber } from "@/components/console/format";
import { FormDialog } from "@/components/console/form-dialog";
import { request, useApi, type AnswerOf } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { Details, ProgressBar } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";
import type { EvaluationDryRun } from "@/lib/evaluations/schemas";
import { EvaluateFields } from "./evaluate-form";
import { EMPTY_FORM, toBody, type EvaluateForm, type SourcePick } from "./evaluate-state";
import { isLive } from "./evaluation-live";
import { linkClass } from "./links";

const EVALUATIONS = "POST /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations";

function Figures({ dry, live }: { dry: EvaluationDryRun; live: boolean }) {
  const e = dry.estimate;
  // Below the fields: brought into view when they arrive (a phone shows a few fields at a time).
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // In braces: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    ref.current?.scrollIntoView({ block: "nearest" });
  }, [dry]);
  return (
    <section
      ref={ref}
      aria-label="Dry run"
      data-testid="dry-run"
      className="rounded-md bg-indigo-50 p-3 ring-1 ring-indigo-200"
    >
      <Details
        items={[
          ["Cases", formatNumber(e.cases)],
          ["Model calls", formatNumber(e.model_calls)],
          ["HTTP calls", live ? `${formatNumber(e.http_calls)} sent for real` : "none (recorded answers replayed)"],
          ["Tokens", formatNumber(e.tokens)],
          ["Estimated cost", formatCost(e.cost_usd)],
        ]}
      />
    </section>
  );
}

function Started({ agentId, evaluationId }: { agentId: string; evaluationId: string }) {
  // Polled every second while queued or running.
  const q = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]",
    { params: { agent_id: agentId, evaluation_id: evaluationId } },
    { refetchInterval: (query) => (isLive(query.state.data) ? 1_000 : false) },
  );
  const e = q.data;
  return (
    <div className="space-y-3" data-testid="evaluation-started">
      {e && (
        <>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge status={e.status} /> {e.progress.done} of {e.progress.total} cases done
          </p>
          <ProgressBar
            label="Evaluation progress"
            percent={
              isLive(e) || e.progress.total === 0 ? (e.progress.done / Math.max(1, e.progress.total)) * 100 : 100
            }
          />
        </>
      )}
      <Link href={`/agents/${agentId}/evaluations/${evaluationId}`} className={linkClass}>
        Open the evaluation
      </Link>
    </div>
  );
}

export function EvaluateDialog({
  agentId,
  kind,
  pick = {},
  title,
  open,
  onClose,
}: {
  agentId: string;
  kind: "sessions" | "runs";
  pick?: SourcePick;
  title: string;
  open: boolean;
  onClose: () => void;
}) {
  const [form, setForm] = useState<EvaluateForm>(EMPTY_FORM);
  const body = toBody(form, kind, pick);
  const dry = useMutation({
    mutationFn: () => request(EVALUATIONS, { params: { agent_id: agentId }, body: { ...body, dry_run: true } }),
  });
  const start = useMutation({
    // Not a dry run: the answer is the evaluation, queued (201; the route's 200 is the dry run's).
    mutationFn: async () =>
      (await request(EVALUATIONS, {
        params: { agent_id: agentId },
        body: { ...body, dry_run: false },
      })) as unknown as AnswerOf<typeof EVALUATIONS, 201>,
  });
  const set = (changes: Partial<EvaluateForm>) => {
    setForm((f) => ({ ...f, ...changes }));
    // The confirmation changes nothing the dry run counted.
    if (Object.keys(changes).some((k) => k !== "liveConfirmed")) dry.reset();
  };
  const close = () => {
    dry.reset();
    start.reset();
    setForm(EMPTY_FORM);
    onClose();
  };
  const error = start.error ?? dry.error;
  const errors = error instanceof ConsoleApiError ? error.fields : {};
  const started = start.data?.evaluation_id;
  // Live calls start only once confirmed, after the dry run has said how many there are.
  const unconfirmed = Boolean(dry.data) && kind === "runs" && form.liveCalls && !form.liveConfirmed;
  return (
    <FormDialog
      open={open}
      onClose={close}
      title={title}
      description={`Replays ${kind} of this agent against a version, beside a baseline; nothing production reads changes.`}
      formId="evaluate"
      submitLabel={started ? "Started" : dry.data ? "Start evaluation" : "Dry run"}
      pendingLabel={dry.isPending ? "Counting…" : "Starting…"}
      pending={dry.isPending || start.isPending}
      disabled={Boolean(started) || unconfirmed}
      onSubmit={() => (dry.data ? start.mutate() : dry.mutate())}
    >
      {started ? (
        <Started agentId={agentId} evaluationId={started} />
      ) : (
        <>
          <EvaluateFields agentId={agentId} form={form} set={set} kind={kind} errors={errors} />
          {dry.data && <Figures dry={dry.data} live={kind === "runs" && form.liveCalls} />}
          {unconfirmed && (
            <p className="text-sm text-amber-900" data-testid="live-calls-unconfirmed">
              Confirm the live calls above to start.
            </p>
          )}
          {error && (
            <ErrorState
              error={error}
              title={
                error instanceof ConsoleApiError && error.code === "too_many_evaluations"
                  ? "Too many evaluations are running: try again when one finishes"
                  : "The evaluation was not started"
              }
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
