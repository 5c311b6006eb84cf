"use client";
// The agent form's inputs by job: a text input bound to the form state, the basics (name, kind) and
// the runtime (its type and the settings of that type).
import Link from "next/link";
import type { ReactNode } from "react";
import { JsonEditor, type JsonLineError } from "@/components/console/json-editor";
import { useSecrets, type Agent } from "@/components/console/queries";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/misc";
import { Field, Select, Textarea, TextField } from "@/components/ui/field";
import type { FormState } from "./agent-form-state";
import { RUNTIME_LABELS, type RuntimeType } from "./runtime-labels";

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

export function BasicsCard({
  agent,
  s,
  set,
  text,
  nameError,
  kindError,
}: {
  agent?: Agent;
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

export function RuntimeCard({
  s,
  set,
  text,
  rt,
  runtimeError,
  headerErrors,
}: {
  s: FormState;
  set: SetField;
  text: TextField;
  rt: (field: string) => string | undefined;
  runtimeError?: string;
  headerErrors: JsonLineError[];
}) {
  const secrets = useSecrets({ enabled: s.type === "openai" });
  // The current choice stays listed even before the list has loaded.
  const secretNames = [
    ...new Set([...(secrets.data?.secrets.map((x) => x.name) ?? []), ...(s.api_key_secret ? [s.api_key_secret] : [])]),
  ];

  const headersEditor = (
    <div className="sm:col-span-2">
      <JsonEditor
        label="Headers (JSON object)"
        value={s.headers}
        onChange={(v) => set("headers", v)}
        errors={headerErrors}
        rows={4}
        hint={
          <>
            Optional, sent with every call. Name credentials by secret, for example{" "}
            <code className="font-mono">{`{"Authorization": "Bearer {{secrets.my-api-key}}"}`}</code>; other values are
            shown as [redacted] once saved, and saving them unchanged keeps them.
          </>
        }
      />
    </div>
  );

  return (
    <Card title="Runtime">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Runtime type"
          error={runtimeError ?? rt("type")}
          hint={
            s.kind === "workflow"
              ? "Workflow agents use it for llm steps that name no runtime of their own."
              : "What answers the messages."
          }
        >
          {({ id, describedBy, invalid }) => (
            <Select
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={s.type}
              onChange={(e) => set("type", e.target.value as RuntimeType)}
            >
              {(Object.keys(RUNTIME_LABELS) as RuntimeType[]).map((t) => (
                <option key={t} value={t}>
                  {RUNTIME_LABELS[t]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {s.type === "echo" &&
          text("delay_ms", "Delay (ms)", {
            error: rt("delay_ms"),
            inputMode: "numeric",
            placeholder: "0",
            hint: "Replies “Echo: <message>” after this delay. For trying things out.",
          })}
        {s.type === "openai" && (
          <>
            {text("base_url", "Base URL", {
              error: rt("base_url"),
              inputMode: "url",
              placeholder: "https://api.openai.com/v1",
            })}
            {text("model", "Model", { error: rt("model"), placeholder: "gpt-4o-mini" })}
            <Field
              label="API key"
              error={rt("api_key_secret")}
              hint={
                <>
                  An organization secret holding the key (
                  <Link href="/settings/secrets" className="text-indigo-700 underline underline-offset-2">
                    Secrets
                  </Link>
                  ); the key itself is never stored in the agent or shown again.
                </>
              }
            >
              {({ id, describedBy, invalid }) => (
                <Select
                  id={id}
                  aria-describedby={describedBy}
                  invalid={invalid}
                  value={s.api_key_secret}
                  onChange={(e) => set("api_key_secret", e.target.value)}
                >
                  <option value="">None (the server needs no key)</option>
                  {secretNames.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {(s.api_key_env || rt("api_key_env")) &&
              text("api_key_env", "API key environment variable (operator-allowed)", {
                error: rt("api_key_env"),
                hint: "Only variables the operator allows (MODEL_KEY_ENV_ALLOWLIST). Choose a secret instead and clear this.",
              })}
            {text("timeout_ms", "Timeout (ms)", {
              error: rt("timeout_ms"),
              inputMode: "numeric",
              placeholder: "20000",
            })}
            <Field label="System prompt" error={rt("system")} className="sm:col-span-2">
              {({ id, describedBy, invalid }) => (
                <Textarea
                  id={id}
                  aria-describedby={describedBy}
                  invalid={invalid}
                  rows={3}
                  value={s.system}
                  onChange={(e) => set("system", e.target.value)}
                />
              )}
            </Field>
            {headersEditor}
            {text("prompt_price", "Price per million prompt tokens (USD)", {
              error: rt("prices.prompt_per_million") ?? rt("prices"),
              inputMode: "decimal",
              placeholder: "0.15",
            })}
            {text("completion_price", "Price per million completion tokens (USD)", {
              error: rt("prices.completion_per_million"),
              inputMode: "decimal",
              placeholder: "0.60",
              hint: "With both prices set, each reply's cost is recorded.",
            })}
          </>
        )}
        {s.type === "http" && (
          <>
            {text("url", "URL", { error: rt("url"), inputMode: "url", placeholder: "https://example.com/agent" })}
            {text("timeout_ms", "Timeout (ms)", {
              error: rt("timeout_ms"),
              inputMode: "numeric",
              placeholder: "20000",
            })}
            {headersEditor}
          </>
        )}
      </div>
    </Card>
  );
}
