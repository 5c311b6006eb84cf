"use client";
// The evaluation dialog's fields: the source, the versions (picked from the agent's), the checks, the
// budget and, for workflows, live http calls (confirmed apart). The API's field errors show at their
// field (`source.limit`, `checks.1.expression`, `budget.max_cost_usd`).
import { useApiPage } from "@/components/console/use-api";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";
import { ChecksFields } from "./evaluate-checks";
import type { EvaluateForm } from "./evaluate-state";

/** The versions a select offers: the 50 newest but superseded drafts, "v3 · published". */
function useVersionOptions(agentId: string): [string, string][] {
  const q = useApiPage("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions", {
    params: { agent_id: agentId },
    query: { limit: 50, cursor: "" },
  });
  return (q.data?.versions ?? [])
    .filter((v) => v.state !== "superseded" && v.state !== "draft")
    .map((v) => [String(v.version), `v${v.version} · ${v.state.replace("_", " ")}`]);
}

/** Workflows: http steps replay what was recorded, or, switched on and confirmed, are sent for real. */
function LiveCalls({ form: f, set }: { form: EvaluateForm; set: (changes: Partial<EvaluateForm>) => void }) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-semibold text-zinc-900">HTTP steps</legend>
      <CheckboxField
        label="Send http steps for real (live calls)"
        checked={f.liveCalls}
        onChecked={(liveCalls) => set({ liveCalls, liveConfirmed: false })}
      />
      {f.liveCalls ? (
        <div data-testid="live-calls-warning" className="space-y-2 rounded-md bg-amber-50 p-3 ring-1 ring-amber-300">
          <p className="text-sm text-amber-900">
            Each replayed run&apos;s http steps are sent to their URLs, once per case and side, with an Idempotency-Key:
            the systems behind them see real requests. The dry run counts them.
          </p>
          <CheckboxField
            label="I confirm: send the http steps for real"
            checked={f.liveConfirmed}
            onChecked={(liveConfirmed) => set({ liveConfirmed })}
          />
        </div>
      ) : (
        <p className="text-sm text-zinc-600">
          Off: each http step answers what the original run&apos;s step answered; a step with nothing recorded is
          skipped.
        </p>
      )}
    </fieldset>
  );
}

export function EvaluateFields({
  agentId,
  form: f,
  set,
  kind,
  errors,
}: {
  agentId: string;
  form: EvaluateForm;
  set: (changes: Partial<EvaluateForm>) => void;
  kind: "sessions" | "runs";
  errors: Record<string, string>;
}) {
  const versions = useVersionOptions(agentId);
  return (
    <>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Source: {kind}</legend>
        <TextField
          label="Cases"
          hint="1-500"
          inputMode="numeric"
          value={f.limit}
          error={errors["source.limit"]}
          onValue={(v) => set({ limit: v })}
        />
        <SelectField
          label="Sample"
          value={f.sample}
          options={[
            ["latest", "Latest"],
            ["random", "Random"],
          ]}
          onValue={(v) => set({ sample: v as EvaluateForm["sample"] })}
        />
        {kind === "sessions" && (
          <SelectField
            label="Turns"
            value={f.turns}
            options={[
              ["last", "Last turn"],
              ["all", "Every turn"],
            ]}
            onValue={(v) => set({ turns: v as EvaluateForm["turns"] })}
          />
        )}
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Versions</legend>
        <SelectField
          label="Candidate"
          value={f.candidate}
          error={errors.candidate}
          options={[["draft", "The draft"], ...versions]}
          onValue={(v) => set({ candidate: v })}
        />
        <SelectField
          label="Baseline"
          value={f.baseline}
          error={errors.baseline}
          options={[["recorded", "What production recorded"], ...versions]}
          onValue={(v) => set({ baseline: v })}
        />
      </fieldset>
      <ChecksFields form={f} set={set} errors={errors} />
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Budget</legend>
        <TextField
          label="Max cost (USD)"
          inputMode="decimal"
          value={f.maxCost}
          error={errors["budget.max_cost_usd"]}
          onValue={(v) => set({ maxCost: v })}
        />
        <TextField
          label="Max tokens"
          inputMode="numeric"
          value={f.maxTokens}
          error={errors["budget.max_tokens"]}
          onValue={(v) => set({ maxTokens: v })}
        />
      </fieldset>
      {kind === "runs" && <LiveCalls form={f} set={set} />}
    </>
  );
}
