// What an agent's answers never show, to any role: header values (unless they are only secret
// references), passwords and credential-like query values in URLs, and text that looks like a
// credential (API keys, tokens, private keys) anywhere in the runtime or workflow. Each is replaced
// by "[redacted]". An update that sends a redacted value back unchanged keeps the stored one
// (`restoreRedacted`), so that the console can edit an agent without ever holding its credentials.
import { onlyRefs } from "../secrets/refs";

export const REDACTED = "[redacted]";

/** Credential formats, each linear in the input (one character class per quantifier). */
const CREDENTIAL_RE = new RegExp(
  [
    String.raw`\b(?:sk|rk)[-_][A-Za-z0-9_-]{20,}`, // OpenAI, Anthropic, Stripe secret and restricted keys
    String.raw`\b(?:ak|ut)_[0-9A-Za-z]{24,}`, // this service's Access Keys and user tokens
    String.raw`\bwhsec_[A-Za-z0-9+/=]{16,}`, // webhook signing secrets
    String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`,
    String.raw`\bglpat-[A-Za-z0-9_-]{20,}`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
    String.raw`\bhf_[A-Za-z0-9]{30,}`,
    String.raw`\bnpm_[A-Za-z0-9]{36}`,
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, // JWTs
    String.raw`-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[A-Za-z0-9+/=\s]*(?:-----END[A-Z ]{0,40}PRIVATE KEY-----)?`,
    String.raw`\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/-]{16,}=*`,
  ].join("|"),
  "g",
);

/** Query parameters that carry credentials by name (`api_key`, `token`, `sig`, Azure's `code`, ...). */
const CREDENTIAL_PARAM_RE =
  /^(?:.*[_-])?(?:key|apikey|token|secret|password|passwd|pwd|sig|signature|code|auth|credentials?)$/i;

function redactUrl(value: string): string {
  const url = new URL(value);
  let changed = false;
  if (url.password) {
    url.password = REDACTED;
    changed = true;
  } else if (url.username) {
    url.username = REDACTED;
    changed = true;
  }
  for (const [name, v] of [...url.searchParams]) {
    if (v && CREDENTIAL_PARAM_RE.test(name)) {
      url.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? url.toString() : value;
}

type Path = string[];

function redactLeaf(path: Path, value: string): string {
  if (path[path.length - 2] === "headers") return onlyRefs(value) ? value : REDACTED;
  let out = value;
  if (/^https?:\/\//i.test(out) && URL.canParse(out)) out = redactUrl(out);
  return out.replace(CREDENTIAL_RE, REDACTED);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Steps are matched by id, so that a reordered workflow keeps each step's own values. */
function segment(path: Path, element: unknown, index: number): string {
  return path[path.length - 1] === "steps" && isObject(element) && typeof element.id === "string"
    ? `#${element.id}`
    : String(index);
}

function mapStrings(value: unknown, path: Path, fn: (path: Path, s: string) => string): unknown {
  if (typeof value === "string") return fn(path, value);
  if (Array.isArray(value)) return value.map((x, i) => mapStrings(x, [...path, segment(path, x, i)], fn));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, mapStrings(x, [...path, k], fn)]));
  }
  return value;
}

/** A runtime or workflow as it may be shown. */
export function redactConfig<T>(config: T): T {
  return mapStrings(config, [], redactLeaf) as T;
}

/** `next` with every value that equals the redacted form of the stored one put back to the stored one. */
export function restoreRedacted<T>(next: T, stored: unknown): T {
  const old = new Map<string, string>();
  mapStrings(stored, [], (path, s) => {
    old.set(JSON.stringify(path), s);
    return s;
  });
  return mapStrings(next, [], (path, s) => {
    const before = old.get(JSON.stringify(path));
    return before !== undefined && before !== s && redactLeaf(path, before) === s ? before : s;
  }) as T;
}
