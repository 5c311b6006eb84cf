// Credentials of an upstream call, resolved at the moment of the call: organization secrets named
// in header values (`{{secrets.<name>}}`) and an openai runtime's `api_key_secret`, or an
// environment variable the operator allowed (MODEL_KEY_ENV_ALLOWLIST). The runtime never reads the
// database: the caller hands in a lookup bound to the agent's organization (lib/secrets).
import { allowedKeyEnv } from "../env";
import { substituteRefs } from "../secrets/refs";
import { SECRET_VALUE_RE } from "../secrets/schemas";
import { RuntimeError } from "./types";

/**
 * The value of one of the organization's secrets, undefined when it is not set (lib/secrets hands
 * it in: it knows the store, this folder knows what a missing secret means to a runtime).
 */
export type SecretLookup = (name: string) => Promise<string | undefined>;

/** Used where no organization is at hand: any reference fails, saying so. */
const noSecrets: SecretLookup = async () => undefined;

/**
 * The secret's value, or the RuntimeError that names the missing one, or one stored before values
 * were checked that no header can carry (by its name only: an HTTP client's own error would name
 * the character, its position and its code point, and be logged).
 */
async function secretValue(secrets: SecretLookup, name: string): Promise<string> {
  const value = await secrets(name);
  if (value === undefined) throw missingSecret(name);
  if (!SECRET_VALUE_RE.test(value)) {
    const message = `the organization secret "${name}" holds characters an HTTP header cannot carry: set it again`;
    throw new RuntimeError("error", message, false, `The agent's configuration names ${message}.`);
  }
  return value;
}

export function missingSecret(name: string): RuntimeError {
  const message = `the organization secret "${name}" is not set: add it on the Secrets page (or PUT .../secrets/${name})`;
  return new RuntimeError("error", message, false, `The agent's configuration names ${message}.`);
}

/** Header values with their secret references replaced. */
export async function upstreamHeaders(
  headers: Record<string, string> | undefined,
  secrets: SecretLookup = noSecrets,
): Promise<Record<string, string> | undefined> {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = await substituteRefs(value, (name) => secretValue(secrets, name));
  return out;
}

/** Sent when no key is named: local servers (Ollama, vLLM) accept any key, and the client refuses to start without one. */
const DUMMY_KEY = "not-needed";

/** The API key of an openai runtime: its secret, an allowed environment variable, or none. */
export async function openAiKey(
  config: { api_key_secret?: string; api_key_env?: string; base_url: string },
  secrets: SecretLookup = noSecrets,
): Promise<string> {
  if (config.api_key_secret) return secretValue(secrets, config.api_key_secret);
  if (!config.api_key_env) return DUMMY_KEY;
  const host = URL.canParse(config.base_url) ? new URL(config.base_url).hostname : "";
  const found = allowedKeyEnv(config.api_key_env, host);
  if (!found.allowed) {
    const message =
      `runtime.api_key_env names ${config.api_key_env}, which the operator does not allow for ${host || "this base_url"} ` +
      `(MODEL_KEY_ENV_ALLOWLIST): store the key as an organization secret and set runtime.api_key_secret instead`;
    throw new RuntimeError("error", message, false, `The agent's configuration is refused: ${message}.`);
  }
  return found.value || DUMMY_KEY;
}
