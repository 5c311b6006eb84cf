// Organization secrets as agents name them (pure: no database). An openai runtime names its key by
// `api_key_secret: "<name>"`; a header value names secrets inline: `"Bearer {{secrets.<name>}}"`.
// docs/api.md "Organization secrets".

/** A secret's name: a letter or digit, then letters, digits, `_`, `-` or `.`, 64 characters at most. */
export const SECRET_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const SECRET_NAME_RULE = "must be 1-64 letters, digits, _, - or ., starting with a letter or digit";

/** `{{secrets.<name>}}`, spaces allowed inside the braces. */
const REF_RE = /\{\{\s*secrets\.([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\s*\}\}/g;
/** Something meant as a reference that is not one (`{{secret.x}}`, `{{ secrets. }}`). */
const LOOSE_REF_RE = /\{\{[^{}]{0,80}secret/i;

/** The names a header value refers to, in order (repeats kept). */
export function secretRefs(value: string): string[] {
  return [...value.matchAll(REF_RE)].map((m) => m[1]!);
}

/** Why a header value's references are malformed, or undefined when they are fine. */
export function refProblem(value: string): string | undefined {
  if (LOOSE_REF_RE.test(value.replace(REF_RE, ""))) {
    return "a secret is referenced as {{secrets.<name>}} (the name as on the Secrets page)";
  }
  return undefined;
}

/** True when the value holds nothing but references, spaces and an authorization scheme word. */
export function onlyRefs(value: string): boolean {
  if (!secretRefs(value).length) return false;
  return /^\s*(?:(?:Bearer|Basic|Token|Bot|ApiKey|Key)\s+)?$/i.test(
    value.replace(REF_RE, "").replace(/\s+/g, " ") || "",
  );
}

/** The value with every reference replaced by the secret's value; `lookup` throws for a missing one. */
export async function substituteRefs(value: string, lookup: (name: string) => Promise<string>): Promise<string> {
  const names = secretRefs(value);
  if (!names.length) return value;
  const values = new Map<string, string>();
  for (const name of names) if (!values.has(name)) values.set(name, await lookup(name));
  return value.replace(REF_RE, (_, name: string) => values.get(name)!);
}
