"use client";
// The evaluation dialog's fields: the source, the versions, the checks and the budget. The API's field errors show at their
// field (`source.limit`, `checks.1.expression`, `budget.max_cost_usd`).
import { SelectField, TextField } from "@/components/ui/field";
import { ChecksFields } from "./evaluate-checks";
import type { EvaluateForm } from "./evaluate-state";

export function EvaluateFields({
  form: f,
  set,
  kind,
  errors,
}: {
  form: EvaluateForm;
  set: (changes: Partial<EvaluateForm>) => void;
  kind: "sessions" | "runs";
  errors: Record<string, string>;
}) {
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
        <TextField
          label="Candidate"
          hint='"draft" or a version number'
          value={f.candidate}
          error={errors.candidate}
          onValue={(v) => set({ candidate: v })}
        />
        <TextField
          label="Baseline"
          hint='"recorded" or a version number'
          value={f.baseline}
          error={errors.baseline}
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
    </>
  );
}
