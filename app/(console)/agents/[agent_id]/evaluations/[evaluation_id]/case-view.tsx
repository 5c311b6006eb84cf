"use client";
// One case over the evaluation's page: its input, the baseline and candidate side by side, the diff
// and the checks, and the verdict (better, same, worse, with a note) that every member may give.
// Keys: j the next case of the page, k the one before, b / s / w a verdict (not while typing).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiKey, request } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/states";
import type { EvaluationCaseRecord, EvaluationRecord } from "@/lib/evaluations/schemas";
import { baselineLabel } from "./labels";
import { ChecksView, DiffView, SideView, Value } from "./case-parts";

type Verdict = NonNullable<EvaluationCaseRecord["verdict"]>;
const VERDICTS: [Verdict, string, string][] = [
  ["better", "Better", "b"],
  ["same", "Same", "s"],
  ["worse", "Worse", "w"],
];

export function CaseView(props: {
  evaluation: EvaluationRecord;
  item: EvaluationCaseRecord;
  index: number;
  count: number;
  onMove: (index: number) => void;
  onClose: () => void;
}) {
  const { evaluation: e, item: c, index, count, onMove, onClose } = props;
  const qc = useQueryClient();
  const [note, setNote] = useState(c.verdict_note ?? "");
  useEffect(() => setNote(c.verdict_note ?? ""), [c.case_id, c.verdict_note]);
  const save = useMutation({
    mutationFn: (verdict: Verdict) =>
      request(
        "PUT /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/verdict",
        {
          params: { agent_id: e.agent_id, evaluation_id: e.evaluation_id, case_id: c.case_id },
          body: { verdict, note },
        },
      ),
    onSuccess: () =>
      void qc.invalidateQueries({
        queryKey: apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]", {
          params: { agent_id: e.agent_id, evaluation_id: e.evaluation_id },
        }),
      }),
  });
  // The keys work wherever the focus is in the view (a button disabled at the page's end drops it).
  const mutate = save.mutate;
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement;
      if (ev.altKey || ev.ctrlKey || ev.metaKey || /^(TEXTAREA|INPUT|SELECT)$/.test(t.tagName)) return;
      const verdict = VERDICTS.find(([, , key]) => key === ev.key);
      if (ev.key === "j") onMove(index + 1);
      else if (ev.key === "k") onMove(index - 1);
      else if (verdict) mutate(verdict[0]);
      else return;
      ev.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [index, onMove, mutate]);
  return (
    <Dialog
      open
      onClose={onClose}
      className="max-w-4xl"
      title={`Case ${c.position + 1}`}
      description={`${index + 1} of ${count} on this page · j next, k previous, b / s / w a verdict`}
    >
      <div className="space-y-4" data-testid="case-view" data-case={c.case_id}>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" disabled={index === 0} onClick={() => onMove(index - 1)}>
            Previous case (k)
          </Button>
          <Button size="sm" variant="secondary" disabled={index >= count - 1} onClick={() => onMove(index + 1)}>
            Next case (j)
          </Button>
        </div>
        <Value label="Input" value={c.input} />
        <div className="grid gap-3 md:grid-cols-2">
          <SideView label={`Baseline: ${baselineLabel(e)}`} side={c.baseline} />
          <SideView label={`Candidate: version ${e.candidate.version}`} side={c.candidate} />
        </div>
        <DiffView diff={c.diff} />
        <ChecksView checks={c.checks} />
        {c.skip_reason && <p className="text-sm text-zinc-700">Skipped: {c.skip_reason}</p>}
        <section aria-label="Verdict" className="space-y-2 border-t border-zinc-200 pt-3">
          <TextareaField label="Note" value={note} maxLength={2000} rows={2} onValue={setNote} />
          <div role="group" aria-label="Verdict" className="flex flex-wrap items-center gap-2">
            {VERDICTS.map(([v, label, key]) => (
              <Button
                key={v}
                size="sm"
                variant={c.verdict === v ? "primary" : "secondary"}
                aria-pressed={c.verdict === v}
                disabled={save.isPending}
                onClick={() => save.mutate(v)}
              >
                {label} ({key})
              </Button>
            ))}
            <span role="status" className="text-sm text-zinc-600">
              {save.isPending ? "Saving…" : c.verdict ? `Verdict: ${c.verdict}` : "No verdict yet"}
            </span>
          </div>
          {save.error && <ErrorState error={save.error} title="The verdict was not saved" />}
        </section>
      </div>
    </Dialog>
  );
}
