"use client";
// The agent form's inputs by job: a text input bound to the form state and the basics (name, kind);
// the runtime's inputs are in runtime-fields.tsx.
import type { ReactNode } from "react";
import type { AgentRecord } from "@/lib/agents/schemas";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/misc";
import { TextField } from "@/components/ui/field";
import type { FormState } from "./agent-form-state";

export type SetField = <K extends keyof FormState>(k: K, v: FormState[K]) => void;

/** A text input of one form field, with its label, hint and error. */
export function textField(s: FormState, set: SetField) {
  return (
    k: keyof FormState,
    label: string,
    props: {
      hint?: ReactNode;
      error?: string;
      placeholder?: string;
      inputMode?: "numeric" | "decimal" | "url";
      className?: string;
    } = {},
  ) => (
    <TextField
      label={label}
      hint={props.hint}
      error={props.error}
      className={props.className}
      value={s[k]}
      placeholder={props.placeholder}
      inputMode={props.inputMode}
      onChange={(e) => set(k, e.target.value)}
    />
  );
}
export type TextField = ReturnType<typeof textField>;

/** A version's note: optional, one line, at most 500 characters (what the API takes). */
export function VersionNoteField({
  value,
  onValue,
  label = "Note (optional)",
  hint = "Kept with the version and in the audit log.",
  className,
}: {
  value: string;
  onValue: (value: string) => void;
  label?: string;
  hint?: string;
  className?: string;
}) {
  return <TextField label={label} className={className} maxLength={500} value={value} onValue={onValue} hint={hint} />;
}

export function BasicsCard({
  agent,
  s,
  set,
  text,
  nameError,
  kindError,
}: {
  agent?: AgentRecord;
  s: FormState;
  set: SetField;
  text: TextField;
  nameError?: string;
  kindError?: string;
}) {
  return (
    <Card title="Basics">
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name", { error: nameError, hint: "Shown in the console and the audit log." })}
        {agent ? (
          <div className="space-y-1">
            <p className="text-sm font-medium text-zinc-800">Kind</p>
            <p className="flex items-center gap-2 text-sm">
              <Badge tone="indigo">{agent.kind}</Badge>
              <span className="text-zinc-600">The kind of an agent cannot change.</span>
            </p>
          </div>
        ) : (
          <fieldset>
            <legend className="text-sm font-medium text-zinc-800">Kind</legend>
            <div className="mt-2 space-y-2">
              {(
                [
                  ["conversational", "Conversational: replies to messages in sessions"],
                  ["workflow", "Workflow: runs declared steps over a list of items"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name="kind"
                    value={value}
                    checked={s.kind === value}
                    onChange={() => set("kind", value)}
                    className="mt-0.5 size-4 accent-indigo-600"
                  />
                  <span>{label}</span>
                </label>
              ))}
            </div>
            {kindError && (
              <p role="alert" className="mt-1 text-xs font-medium text-red-700">
                {kindError}
              </p>
            )}
          </fieldset>
        )}
      </div>
    </Card>
  );
}
