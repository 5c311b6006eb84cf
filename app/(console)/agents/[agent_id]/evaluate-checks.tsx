"use client";
// The dialog's checks: no error, equals the baseline, a latency bound, and any number of JSONata
// expressions (name and expression), each with the API's error for it (`checks.N.expression`).
import { Button } from "@/components/ui/button";
import { CheckboxField, TextField } from "@/components/ui/field";
import { num, type EvaluateForm, type ExpressionCheck } from "./evaluate-state";

/** Where a check's error goes: `checks.N...` of the body, back to the expression it came from. */
const expressionIndex = (f: EvaluateForm, n: number) =>
  n - [f.noError, num(f.maxLatency) !== undefined, f.equalsBaseline].filter(Boolean).length;

export function ChecksFields({
  form: f,
  set,
  errors,
}: {
  form: EvaluateForm;
  set: (changes: Partial<EvaluateForm>) => void;
  errors: Record<string, string>;
}) {
  const checkError = (i: number, field: string) =>
    Object.entries(errors).find(([k]) => {
      const m = /^checks\.(\d+)(\.|$)/.exec(k);
      return m && expressionIndex(f, Number(m[1])) === i && (k.endsWith(field) || k === `checks.${m[1]}`);
    })?.[1];
  const setExpression = (i: number, change: Partial<ExpressionCheck>) =>
    set({ expressions: f.expressions.map((x, j) => (j === i ? { ...x, ...change } : x)) });
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-sm font-semibold text-zinc-900">Checks</legend>
      <CheckboxField label="No error" checked={f.noError} onChecked={(noError) => set({ noError })} />
      <CheckboxField
        label="Equals the baseline"
        checked={f.equalsBaseline}
        onChecked={(equalsBaseline) => set({ equalsBaseline })}
      />
      <TextField
        label="Max latency (ms)"
        inputMode="numeric"
        value={f.maxLatency}
        onValue={(v) => set({ maxLatency: v })}
      />
      {f.expressions.map((x, i) => (
        <div key={i} className="grid gap-2 rounded-md p-3 ring-1 ring-zinc-200">
          <TextField
            label={`Check ${i + 1} name`}
            value={x.name}
            error={checkError(i, "name")}
            onValue={(name) => setExpression(i, { name })}
          />
          <TextField
            label={`Check ${i + 1} expression`}
            hint="JSONata over input, output, baseline"
            value={x.expression}
            error={checkError(i, "expression")}
            onValue={(expression) => setExpression(i, { expression })}
          />
          <Button
            size="sm"
            variant="ghost"
            className="justify-self-end"
            onClick={() => set({ expressions: f.expressions.filter((_, j) => j !== i) })}
          >
            Remove check {i + 1}
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        variant="secondary"
        onClick={() => set({ expressions: [...f.expressions, { name: "", expression: "" }] })}
      >
        Add an expression check
      </Button>
    </fieldset>
  );
}
