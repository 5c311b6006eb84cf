"use client";
// The runtime part of the agent form, by job: the runtime type, then the settings of that type
// (echo's delay; an OpenAI-compatible model with its key, prompt and prices; an HTTP endpoint), and
// the headers editor the two remote runtimes share. RuntimeCard composes them.
import Link from "next/link";
import { JsonEditor, type JsonLineError } from "@/components/console/json-editor";
import { useApiEvery } from "@/components/console/use-api";
import { Field, Select, Textarea } from "@/components/ui/field";
import { Card } from "@/components/ui/misc";
import type { SetField, TextField } from "./agent-form-fields";
import type { FormState } from "./agent-form-state";
import { RUNTIME_LABELS, type RuntimeType } from "./runtime-labels";

/** The error of a runtime field (`rt("model")`), from the API's field errors. */
type RuntimeErrors = (field: string) => string | undefined;

interface RuntimeParts {
  s: FormState;
  set: SetField;
  text: TextField;
  rt: RuntimeErrors;
}

function RuntimeTypeField({ s, set, error }: { s: FormState; set: SetField; error?: string }) {
  return (
    <Field
      label="Runtime type"
      error={error}
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
  );
}

/** Headers sent with every call of a remote runtime; credentials named as `{{secrets.name}}`. */
function HeadersField({ s, set, errors }: { s: FormState; set: SetField; errors: JsonLineError[] }) {
  return (
    <div className="sm:col-span-2">
      <JsonEditor
        label="Headers (JSON object)"
        value={s.headers}
        onChange={(v) => set("headers", v)}
        errors={errors}
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
}

/** The organization secret holding an OpenAI-compatible runtime's key (docs/console.md, /settings/secrets). */
function ApiKeySecretField({ s, set, error }: { s: FormState; set: SetField; error?: string }) {
  const secrets = useApiEvery(
    "GET /api/v1/organizations/[org_id]/secrets",
    "secrets",
    {},
    { enabled: s.type === "openai" },
  );
  // The current choice stays listed even before the list has loaded.
  const names = [
    ...new Set([...(secrets.data?.secrets.map((x) => x.name) ?? []), ...(s.api_key_secret ? [s.api_key_secret] : [])]),
  ];
  return (
    <Field
      label="API key"
      error={error}
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
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

const timeoutField = ({ text, rt }: RuntimeParts) =>
  text("timeout_ms", "Timeout (ms)", { error: rt("timeout_ms"), inputMode: "numeric", placeholder: "20000" });

/** An OpenAI-compatible model: where, which, its key, its prompt, and the prices a reply's cost is made of. */
function OpenAiFields({ headers, ...p }: RuntimeParts & { headers: JsonLineError[] }) {
  const { s, set, text, rt } = p;
  return (
    <>
      {text("base_url", "Base URL", {
        error: rt("base_url"),
        inputMode: "url",
        placeholder: "https://api.openai.com/v1",
      })}
      {text("model", "Model", { error: rt("model"), placeholder: "gpt-4o-mini" })}
      <ApiKeySecretField s={s} set={set} error={rt("api_key_secret")} />
      {(s.api_key_env || rt("api_key_env")) &&
        text("api_key_env", "API key environment variable (operator-allowed)", {
          error: rt("api_key_env"),
          hint: "Only variables the operator allows (MODEL_KEY_ENV_ALLOWLIST). Choose a secret instead and clear this.",
        })}
      {timeoutField(p)}
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
      <HeadersField s={s} set={set} errors={headers} />
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
  );
}

/** The customer's own endpoint. */
function HttpFields({ headers, ...p }: RuntimeParts & { headers: JsonLineError[] }) {
  return (
    <>
      {p.text("url", "URL", { error: p.rt("url"), inputMode: "url", placeholder: "https://example.com/agent" })}
      {timeoutField(p)}
      <HeadersField s={p.s} set={p.set} errors={headers} />
    </>
  );
}

export function RuntimeCard({
  runtimeError,
  headerErrors,
  ...p
}: RuntimeParts & { runtimeError?: string; headerErrors: JsonLineError[] }) {
  return (
    <Card title="Runtime">
      <div className="grid gap-4 sm:grid-cols-2">
        <RuntimeTypeField s={p.s} set={p.set} error={runtimeError ?? p.rt("type")} />
        {p.s.type === "echo" &&
          p.text("delay_ms", "Delay (ms)", {
            error: p.rt("delay_ms"),
            inputMode: "numeric",
            placeholder: "0",
            hint: "Replies “Echo: <message>” after this delay. For trying things out.",
          })}
        {p.s.type === "openai" && <OpenAiFields {...p} headers={headerErrors} />}
        {p.s.type === "http" && <HttpFields {...p} headers={headerErrors} />}
      </div>
    </Card>
  );
}
