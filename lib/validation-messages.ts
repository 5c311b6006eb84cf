// The words of a validation error, in one place, for the API and the console alike: zod's default
// texts ("Invalid input: expected object, received string") become phrases a client developer
// understands ("must be an object with a file_id"). Each phrase is read after the field's name, the
// way the schemas' own messages are written ("is required", "must be a file id: ..."), so that
// `details.fields` reads `{field: "message", message: "is required"}` and the envelope's message
// reads "Invalid body: message is required". Only zod is imported: browser code can use it.
import type { z } from "zod";

type RawIssue = z.core.$ZodRawIssue;

/** A field path as a client writes it in code: `attachments[0].file_id`; "" for the value itself. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/** The same, from the dotted `field` of the error envelope (`attachments.0.file_id`). */
export function labelOfField(field: string): string {
  if (field === "(root)" || field === "") return "";
  return fieldLabel(field.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
}

/**
 * One field's error as a sentence: "attachments[0] must be an object with a file_id". A message
 * that does not read as a predicate ("duplicate step id a") is set off with a colon instead.
 */
export function fieldSentence(field: string, message: string): string {
  const label = labelOfField(field);
  if (!label) return message;
  return PREDICATE.test(message) ? `${label} ${message}` : `${label}: ${message}`;
}

const PREDICATE = /^(must|is|are|has|have|may|needs?|cannot|should)\b/;

/**
 * The subject a label names: a label that asks ("Choose a password") names its thing ("The
 * password"), and "(optional)" is the form's hint, not part of the name.
 */
function subjectOf(label: string): string {
  const bare = label.replace(/\s*\(optional\)\s*$/i, "").replace(/, optional\)$/i, ")");
  const asked = /^(?:choose|enter|pick|type|set|give)\s+(?:a|an|the)\s+(.+)$/i.exec(bare);
  if (asked) return `The ${asked[1]}`;
  const own = /^(?:choose|enter|pick|type|set|give)\s+(your\s+.+)$/i.exec(bare);
  if (own) return own[1]!.charAt(0).toUpperCase() + own[1]!.slice(1);
  return bare;
}

/**
 * A form's field holds text (or nothing): "must be a number, not a string" says what the API was
 * sent, which the person never typed; in a form the predicate alone is the form's words.
 */
const formWords = (message: string) => message.replace(/^(must be .+), not (?:a string|null)$/, "$1");

/**
 * A field's message as a sentence after a label a person reads ("Name" + "must not be empty" ->
 * "Name must not be empty."); a message that is already a sentence is kept.
 */
export function labelledSentence(label: string, message: string): string {
  if (!PREDICATE.test(message)) return message;
  const sentence = `${subjectOf(label)} ${formWords(message)}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
}

/** What a value is, for "must be a string, not a number". */
function kindOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "object") return "an object";
  if (typeof input === "boolean") return `${input}`;
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  return article(typeof input);
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "a JSON object",
  record: "a JSON object",
  null: "null",
  date: "a date",
  bigint: "an integer",
};

/** The required keys of an object schema, when it has a handful: the shape a client must send. */
function requiredKeys(inst: unknown): string[] | undefined {
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, { _zod?: { optin?: string } }> } } })?._zod?.def
    ?.shape;
  if (!shape) return undefined;
  return Object.entries(shape)
    .filter(([, s]) => s?._zod?.optin !== "optional")
    .map(([k]) => k);
}

function knownKeys(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } })?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

function expectedType(issue: Extract<RawIssue, { code: "invalid_type" }>): string {
  if (issue.expected === "object") {
    const keys = requiredKeys(issue.inst);
    if (keys?.length === 1) return `an object with ${article(keys[0]!)}`;
    if (keys && keys.length > 1 && keys.length <= 3) {
      return `an object with ${keys.slice(0, -1).join(", ")} and ${keys.at(-1)}`;
    }
  }
  return TYPE_WORDS[issue.expected] ?? article(String(issue.expected));
}

const SIZE_UNITS: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  map: ["entry", "entries"],
  file: ["byte", "bytes"],
};

function bound(
  kind: "at least" | "at most",
  issue: { origin?: string; inclusive?: boolean; exact?: boolean },
  n: number | bigint,
): string {
  const units = issue.origin ? SIZE_UNITS[issue.origin] : undefined;
  if (units) {
    const unit = Number(n) === 1 ? units[0] : units[1];
    const verb = issue.origin === "string" ? "be" : "have";
    if (issue.exact) return `must ${verb} exactly ${n} ${unit}`;
    if (kind === "at least" && Number(n) === 1) return "must not be empty";
    return `must ${verb} ${kind} ${n} ${unit}`;
  }
  if (issue.origin === "date")
    return `must be ${kind === "at least" ? "on or after" : "on or before"} ${new Date(Number(n)).toISOString()}`;
  if (issue.inclusive === false) return `must be ${kind === "at least" ? "greater" : "less"} than ${n}`;
  return `must be ${kind} ${n}`;
}

const FORMAT_WORDS: Record<string, string> = {
  email: "an email address",
  url: "a URL",
  uuid: "a UUID",
  datetime: "an ISO 8601 date and time in UTC (2026-01-31T12:00:00Z)",
  date: "a date (YYYY-MM-DD)",
  time: "a time (HH:MM:SS)",
  duration: "an ISO 8601 duration",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  base64: "base64 text",
  base64url: "base64url text",
};

/**
 * The error map: a phrase for each of zod's issue kinds, or undefined to keep what the schema
 * itself says. Pass it to a parse (`schema.safeParse(value, { error: validationMessage })`): the
 * messages a schema sets itself (`.regex(re, "must be a file id: ...")`) still take precedence.
 */
export function validationMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${expectedType(issue)}, not ${kindOf(issue.input)}`;
    case "invalid_value":
      if (issue.values.length === 1) return `must be ${JSON.stringify(issue.values[0])}`;
      return `must be one of: ${list(issue.values)}`;
    case "too_small":
      return bound("at least", issue, issue.minimum);
    case "too_big":
      return bound("at most", issue, issue.maximum);
    case "invalid_format": {
      if (issue.format === "starts_with") return `must start with "${(issue as { prefix?: string }).prefix}"`;
      if (issue.format === "ends_with") return `must end with "${(issue as { suffix?: string }).suffix}"`;
      if (issue.format === "includes") return `must contain "${(issue as { includes?: string }).includes}"`;
      if (issue.format === "regex") return "is not in the expected format";
      return `must be ${FORMAT_WORDS[issue.format] ?? `a valid ${issue.format}`}`;
    }
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys": {
      const known = knownKeys(issue.inst);
      const keys = issue.keys.map((k) => `"${k}"`).join(", ");
      const head = issue.keys.length === 1 ? `has an unknown key ${keys}` : `has unknown keys ${keys}`;
      return known.length ? `${head} (the known keys: ${known.join(", ")})` : head;
    }
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (options?.length) return `must be one of: ${list(options)}`;
      // Alternatives of one value (a date-time or a date): "must be X or Y".
      const branches = ((issue as { errors?: { message: string; path: PropertyKey[] }[][] }).errors ?? []).map((b) =>
        b.length === 1 && b[0]!.path.length === 0 ? b[0]!.message : undefined,
      );
      if (branches.length > 1 && branches.every((m) => m?.startsWith("must be "))) {
        return `must be ${[...new Set(branches.map((m) => m!.slice("must be ".length)))].join(" or ")}`;
      }
      if ((issue as { inclusive?: boolean }).inclusive === false) return "matches more than one of the accepted forms";
      return "does not match any of the accepted forms";
    }
    case "invalid_key":
      return "is not an allowed key";
    case "invalid_element":
      return "is not an allowed value";
    case "custom":
      return "is not valid";
    default:
      return undefined;
  }
}

/** A zod error as the envelope's `details.fields`: the dotted path and the phrase for each issue. */
export function fieldErrors(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join(".") || "(root)", message: i.message }));
}
