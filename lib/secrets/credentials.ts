// The credentials an agent's configuration names: organization secrets (an openai runtime's
// `api_key_secret`, `{{secrets.<name>}}` in header values) and environment variables (`api_key_env`),
// in its runtime and in its workflow's steps. Checked when the agent is saved (400 invalid_agent
// naming the field), listed for the Secrets page ("used by"), and redacted from every answer
// (lib/agents/redact.ts). Works on stored JSON as it is: nothing here trusts its shape.
import { allowedKeyEnv } from "../env";
import { ApiError } from "../errors";
import { secretRefs } from "./refs";

export type CredentialRef = { field: string; secret: string } | { field: string; env: string; host: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function headerRefs(headers: unknown, field: string, out: CredentialRef[]) {
  if (!isObject(headers)) return;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string")
      for (const secret of secretRefs(value)) out.push({ field: `${field}.${name}`, secret });
  }
}

function runtimeRefs(runtime: unknown, field: string, out: CredentialRef[]) {
  if (!isObject(runtime)) return;
  if (typeof runtime.api_key_secret === "string")
    out.push({ field: `${field}.api_key_secret`, secret: runtime.api_key_secret });
  if (typeof runtime.api_key_env === "string") {
    const base =
      typeof runtime.base_url === "string" && URL.canParse(runtime.base_url) ? new URL(runtime.base_url) : undefined;
    out.push({ field: `${field}.api_key_env`, env: runtime.api_key_env, host: base?.hostname ?? "" });
  }
  headerRefs(runtime.headers, `${field}.headers`, out);
}

/** Every credential the runtime and workflow name, with the field that names it. */
export function credentialRefs(runtime: unknown, workflow: unknown): CredentialRef[] {
  const out: CredentialRef[] = [];
  runtimeRefs(runtime, "runtime", out);
  const steps = isObject(workflow) && Array.isArray(workflow.steps) ? workflow.steps : [];
  steps.forEach((step, i) => {
    if (!isObject(step)) return;
    headerRefs(step.headers, `workflow.steps.${i}.headers`, out);
    runtimeRefs(step.runtime, `workflow.steps.${i}.runtime`, out);
  });
  return out;
}

/**
 * Refuses a configuration that names a secret the organization does not have, or an environment
 * variable the operator has not allowed (for that base_url's host): 400 invalid_agent, naming each
 * field. Returns the secrets it names (for the audit trail).
 */
export function assertCredentials(refs: CredentialRef[], secretNames: Set<string>): string[] {
  const fields: { field: string; message: string }[] = [];
  for (const ref of refs) {
    if ("secret" in ref) {
      if (!secretNames.has(ref.secret)) {
        fields.push({
          field: ref.field,
          message: `no organization secret named "${ref.secret}": add it on the Secrets page first`,
        });
      }
    } else if (!allowedKeyEnv(ref.env, ref.host).allowed) {
      fields.push({
        field: ref.field,
        message:
          `${ref.env} is not an environment variable the operator allows agents to use` +
          `${ref.host ? ` with ${ref.host}` : ""} (MODEL_KEY_ENV_ALLOWLIST): store the key as an organization secret and name it in api_key_secret`,
      });
    }
  }
  if (fields.length) {
    throw new ApiError("invalid_agent", `Invalid agent: ${fields[0]!.field}: ${fields[0]!.message}`, { fields });
  }
  return [...new Set(refs.flatMap((r) => ("secret" in r ? [r.secret] : [])))];
}
