"use client";
// Create or edit an agent: name, kind, runtime (the fields of its type) and, for workflow agents,
// the definition in a JSON editor. The server's zod schemas decide what is valid; their field
// errors (`runtime.base_url`, `workflow.steps.2.when`) are shown at the input or the JSON line.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { queryKeys, requests, useSecrets, type Agent } from "@/components/console/queries";
import { JsonEditor, locateFieldErrors, parseJsonObject, type JsonLineError } from "@/components/console/json-editor";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { Card } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { RUNTIME_LABELS, type AgentKind, type RuntimeType } from "./runtime-labels";

export const STARTER_WORKFLOW = `{
  "inputs": {
    "orders": { "type": "array", "required": true, "description": "The orders to check" },
    "threshold": { "type": "number", "description": "Orders above it wait for a review" }
  },
  "items": { "from": "orders" },
  "steps": [
    {
      "id": "total",
      "type": "transform",
      "expression": "$merge([item, {'total': $number(item.qty) * $number(item.price)}])"
    },
    { "id": "reject", "type": "fail", "when": "item.total < 0", "message": "negative total" },
    { "id": "big", "type": "review", "when": "item.total > inputs.threshold", "message": "large order" }
  ],
  "output": { "filename": "results.json", "format": "json" }
}
`;

interface FormState {
  name: string;
  kind: AgentKind;
  type: RuntimeType;
  delay_ms: string;
  base_url: string;
  model: string;
  api_key_secret: string;
  api_key_env: string;
  system: string;
  timeout_ms: string;
  prompt_price: string;
  completion_price: string;
  url: string;
  headers: string;
  workflow: string;
  callback_url: string;
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

function initialState(agent?: Agent): FormState {
  const r = (agent?.runtime ?? { type: "echo" }) as Record<string, unknown>;
  const prices = (r.prices ?? {}) as Record<string, unknown>;
  return {
    name: agent?.name ?? "",
    kind: agent?.kind ?? "conversational",
    type: (r.type as RuntimeType) ?? "echo",
    delay_ms: str(r.delay_ms),
    base_url: str(r.base_url),
    model: str(r.model),
    api_key_secret: str(r.api_key_secret),
    api_key_env: str(r.api_key_env),
    system: str(r.system),
    timeout_ms: str(r.timeout_ms),
    prompt_price: str(prices.prompt_per_million),
    completion_price: str(prices.completion_per_million),
    url: str(r.url),
    headers: r.headers ? JSON.stringify(r.headers, null, 2) : "",
    workflow: agent?.workflow ? JSON.stringify(agent.workflow, null, 2) : STARTER_WORKFLOW,
    callback_url: agent?.callback_url ?? "",
  };
}

/** A number field: empty is "not set"; anything else that is not a number goes to the server as typed (it says why). */
const num = (s: string): unknown => {
  const t = s.trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};
const opt = (s: string) => (s.trim() ? s : undefined);

/** The fields this form edits, per runtime type; others an existing config has (echo's `fail`) are kept. */
const MANAGED: Record<RuntimeType, string[]> = {
  echo: ["delay_ms"],
  openai: ["base_url", "model", "api_key_secret", "api_key_env", "system", "timeout_ms", "prices", "headers"],
  http: ["url", "timeout_ms", "headers"],
};

const RUNTIME_FIELDS = [
  "type",
  "delay_ms",
  "base_url",
  "model",
  "api_key_secret",
  "api_key_env",
  "system",
  "timeout_ms",
  "prices",
  "prices.prompt_per_million",
  "prices.completion_per_million",
  "url",
];

type Built =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; errors: { headers?: JsonLineError; workflow?: JsonLineError } };

function build(s: FormState, agent?: Agent): Built {
  const errors: { headers?: JsonLineError; workflow?: JsonLineError } = {};
  const original = agent?.runtime.type === s.type ? { ...agent.runtime } : {};
  for (const k of MANAGED[s.type]) delete (original as Record<string, unknown>)[k];
  let runtime: Record<string, unknown> = { ...original, type: s.type };
  let headers: unknown = undefined;
  if (s.headers.trim() && s.type !== "echo") {
    const h = parseJsonObject(s.headers);
    if (h.ok) headers = h.value;
    else errors.headers = h.error;
  }
  if (s.type === "echo") runtime.delay_ms = num(s.delay_ms);
  if (s.type === "openai") {
    const prices =
      s.prompt_price.trim() || s.completion_price.trim()
        ? { prompt_per_million: num(s.prompt_price), completion_per_million: num(s.completion_price) }
        : undefined;
    runtime = {
      ...runtime,
      base_url: s.base_url.trim(),
      model: s.model.trim(),
      api_key_secret: opt(s.api_key_secret),
      api_key_env: opt(s.api_key_env.trim()),
      system: opt(s.system),
      timeout_ms: num(s.timeout_ms),
      prices,
      headers,
    };
  }
  if (s.type === "http") runtime = { ...runtime, url: s.url.trim(), timeout_ms: num(s.timeout_ms), headers };
  const body: Record<string, unknown> = { name: s.name, runtime };
  if (!agent) body.kind = s.kind;
  // Empty: no default; on an agent that has one, null removes it.
  const callbackUrl = s.callback_url.trim();
  if (callbackUrl) body.callback_url = callbackUrl;
  else if (agent?.callback_url) body.callback_url = null;
  if (s.kind === "workflow") {
    const w = parseJsonObject(s.workflow);
    if (w.ok) body.workflow = w.value;
    else errors.workflow = w.error;
  }
  if (errors.headers || errors.workflow) return { ok: false, errors };
  // JSON.stringify drops the undefined fields: unset means "use the default".
  return { ok: true, body };
}

export function AgentForm({ agent }: { agent?: Agent }) {
  const router = useRouter();
  const toast = useToast();
  const qc = useQueryClient();
  const [s, setS] = useState<FormState>(() => initialState(agent));
  const [clientErrors, setClientErrors] = useState<{ headers?: JsonLineError; workflow?: JsonLineError }>({});
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setS((prev) => ({ ...prev, [k]: v }));
    if (k === "headers" || k === "workflow") setClientErrors((e) => ({ ...e, [k]: undefined }));
  };

  const secrets = useSecrets({ enabled: s.type === "openai" });
  // The current choice stays listed even before the list has loaded.
  const secretNames = [
    ...new Set([...(secrets.data?.secrets.map((x) => x.name) ?? []), ...(s.api_key_secret ? [s.api_key_secret] : [])]),
  ];

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      agent ? requests.updateAgent(agent.agent_id, body) : requests.createAgent(body),
    onSuccess: (saved) => {
      void qc.invalidateQueries({ queryKey: queryKeys.agents() });
      qc.setQueryData(queryKeys.agent(saved.agent_id), saved);
      if (agent) {
        toast({
          tone: "success",
          message: "Changes saved",
          detail: "New triggers use them; runs already started keep theirs.",
        });
      } else {
        toast({ tone: "success", message: `Created ${saved.name}`, detail: "Try it in the test console below." });
        router.push(`/agents/${saved.agent_id}`);
      }
    },
  });

  const apiError = save.error instanceof ConsoleApiError ? save.error : null;
  // invalid_agent: a secret or variable the configuration names is refused; same field list.
  const fields = apiError?.code === "invalid_request" || apiError?.code === "invalid_agent" ? apiError.fields : {};
  const rt = (k: string) => fields[`runtime.${k}`];
  const workflowErrors: JsonLineError[] = clientErrors.workflow
    ? [clientErrors.workflow]
    : locateFieldErrors(s.workflow, fields, "workflow");
  const headerErrors: JsonLineError[] = clientErrors.headers
    ? [clientErrors.headers]
    : locateFieldErrors(s.headers, fields, "runtime.headers");
  // A refused URL may come as a field error or as its own code (invalid_callback_url).
  const callbackError =
    fields.callback_url ?? (apiError?.code === "invalid_callback_url" ? apiError.message : undefined);
  const placed = (f: string) =>
    f === "name" ||
    f === "callback_url" ||
    f === "kind" ||
    f === "runtime" ||
    f === "workflow" ||
    f.startsWith("workflow.") ||
    f.startsWith("runtime.headers") ||
    RUNTIME_FIELDS.some((k) => f === `runtime.${k}`);
  const unplaced = Object.entries(fields).filter(([f]) => !placed(f));
  const fieldCount = Object.keys(fields).length || (callbackError ? 1 : 0);

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

  const submit = () => {
    const built = build(s, agent);
    if (!built.ok) {
      setClientErrors(built.errors);
      save.reset();
      return;
    }
    setClientErrors({});
    save.mutate(built.body);
  };

  const text = (
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
    <Field label={label} hint={props.hint} error={props.error} className={props.className}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          value={s[k]}
          placeholder={props.placeholder}
          inputMode={props.inputMode}
          onChange={(e) => set(k, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form
      noValidate
      className="space-y-6"
      aria-label={agent ? "Agent settings" : "New agent"}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Card title="Basics">
        <div className="grid gap-4 sm:grid-cols-2">
          {text("name", "Name", { error: fields.name, hint: "Shown in the console and the audit log." })}
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
              {fields.kind && (
                <p role="alert" className="mt-1 text-xs font-medium text-red-700">
                  {fields.kind}
                </p>
              )}
            </fieldset>
          )}
        </div>
      </Card>

      <Card title="Runtime">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Runtime type"
            error={fields.runtime ?? rt("type")}
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

      {s.kind === "workflow" && (
        <Card
          title="Workflow definition"
          actions={
            !agent && (
              <Button variant="secondary" size="sm" onClick={() => set("workflow", STARTER_WORKFLOW)}>
                Reset to the example
              </Button>
            )
          }
        >
          <JsonEditor
            label="Definition (JSON)"
            value={s.workflow}
            onChange={(v) => set("workflow", v)}
            errors={workflowErrors}
            rows={22}
            hint={
              <>
                inputs, items, steps (transform, fail, review, skip, http, llm, wait) and output; expressions are
                JSONata over <code className="font-mono">item</code> and <code className="font-mono">inputs</code>. The
                format is described in docs/workflows.md.
              </>
            }
          />
        </Card>
      )}

      <Card title="Completion callbacks">
        {text("callback_url", "Callback URL (optional)", {
          error: callbackError,
          inputMode: "url",
          placeholder: "https://example.com/hooks/agents",
          className: "max-w-2xl",
          hint: (
            <>
              Where this agent&apos;s completion callbacks go when a trigger names no{" "}
              <code className="font-mono">callback_url</code> of its own: a message completed or failed, a run
              completed, failed, paused, cancelled or waiting for review. Signed with the organization&apos;s secret
              (Webhooks page). Empty: none.
            </>
          ),
        })}
      </Card>

      {(unplaced.length > 0 || (save.error && !fieldCount)) && (
        <ErrorState
          error={
            save.error && !fieldCount
              ? save.error
              : { message: unplaced.map(([f, m]) => `${f}: ${m}`).join("; "), requestId: apiError?.requestId }
          }
          title={agent ? "The changes were not saved" : "The agent was not created"}
        />
      )}
      {fieldCount > 0 && (
        <p role="status" className="text-sm text-red-700">
          {fieldCount === 1 ? "One field needs" : `${fieldCount} fields need`} a change (marked above).
          {apiError?.requestId && <span className="ml-1 font-mono text-xs">request id: {apiError.requestId}</span>}
        </p>
      )}

      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : agent ? "Save changes" : "Create agent"}
        </Button>
        {!agent && (
          <Link href="/agents" className={buttonClass("secondary")}>
            Cancel
          </Link>
        )}
      </div>
    </form>
  );
}
