// The agent form's state and what it sends: the fields as typed, the request body built from them
// (keeping the runtime settings the form does not edit), and where the server's field errors go.
import { ConsoleApiError } from "@/components/console/api";
import { locateFieldErrors, parseJsonObject, type JsonLineError } from "@/components/console/json-editor";
import type { AgentRecord } from "@/lib/agents/schemas";
import type { AgentKind, RuntimeType } from "./runtime-labels";

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

export interface FormState {
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

export function initialState(agent?: AgentRecord): FormState {
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

export type ClientErrors = { headers?: JsonLineError; workflow?: JsonLineError };

type Built = { ok: true; body: Record<string, unknown> } | { ok: false; errors: ClientErrors };

export function build(s: FormState, agent?: AgentRecord): Built {
  const errors: ClientErrors = {};
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
  // Empty: no default; on an agent, null removes one (the draft being edited may have one that the
  // configuration the form was loaded with does not).
  const callbackUrl = s.callback_url.trim();
  if (callbackUrl) body.callback_url = callbackUrl;
  else if (agent) body.callback_url = null;
  if (s.kind === "workflow") {
    const w = parseJsonObject(s.workflow);
    if (w.ok) body.workflow = w.value;
    else errors.workflow = w.error;
  }
  if (errors.headers || errors.workflow) return { ok: false, errors };
  // JSON.stringify drops the undefined fields: unset means "use the default".
  return { ok: true, body };
}

/** Where the server's field errors (and the form's own JSON errors) are shown: at their input, at their
 *  JSON line, or, for a field the form has no input for, in the summary under the form. */
export function placeErrors(s: FormState, error: Error | null, clientErrors: ClientErrors) {
  const apiError = error instanceof ConsoleApiError ? error : null;
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
  return { apiError, fields, rt, workflowErrors, headerErrors, callbackError, unplaced, fieldCount };
}
