// Redaction during export (docs/api.md, Exports): email addresses, phone numbers, payment card
// numbers (Luhn-checked) and named fields are replaced by a marker. Every pattern is linear: no
// nested quantifier, each repetition bounded and each start anchored by a lookbehind that fails at
// once inside a run of the same characters, so a record of long digit runs or many `@` costs a few
// steps per character; the records themselves are bounded (1 MiB bodies).
import type { ExportRedaction } from "./schemas";

export const MARKER = {
  email: "[redacted:email]",
  phone: "[redacted:phone]",
  card: "[redacted:card]",
  field: "[redacted:field]",
} as const;

// A local part of at most 64 characters that starts at a boundary, an `@`, labels of at most 63
// characters and a top-level domain of letters.
const EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;

// 13 to 19 digits, single spaces or dashes between them, standing alone (not part of an id, a
// longer number or a decimal). The first digit is one that card networks issue (2-6): Unix times
// in milliseconds (13 digits starting with 1) are never candidates. Luhn decides (luhn below).
const CARD_RE = /(?<![\w.,+-])[2-6](?:[ -]?\d){12,18}(?![\w]|[.,-]\d)/g;

// Phone numbers: E.164 (`+` and 7 to 15 digits, with single spaces, dots or dashes), North
// American `(415) 555-0123` / `415-555-0123` / `415.555.0123`, and national numbers starting with 0
// that have at least one separator (`030 1234567`, `020 7946 0958`). A bare run of digits is never
// taken for a phone number: ids, amounts and timestamps are digits too.
const PHONE_RE = new RegExp(
  [
    String.raw`(?<![\w+])\+[1-9](?:[ .-]?\d){6,14}(?![\w]|[.-]\d)`,
    String.raw`(?<![\w(])\(\d{3}\) ?\d{3}[ .-]\d{4}(?![\w]|[.-]\d)`,
    String.raw`(?<![\w.:/-])\d{3}([.-])\d{3}\1\d{4}(?![\w]|[.:/-]\d)`,
    String.raw`(?<![\w.:/-])0\d{1,4}[ /-]\d{3,8}(?:[ -]\d{2,4}){0,2}(?![\w]|[.:/-]\d)`,
  ].join("|"),
  "g",
);

/** The Luhn checksum of the digits of `s` (separators skipped). */
export function luhn(s: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    let d = c - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export interface Redactor {
  /** The rules this redactor applies, as an export records them. */
  rules: string[];
  /** `value` with every string's matches replaced; objects' keys named in `fields` (at any depth,
   *  case-insensitive) have their whole value replaced when `fields` is true. */
  apply<T>(value: T, opts?: { fields?: boolean }): T;
  /** One string's matches replaced. */
  text(s: string): string;
}

/** The rules of a request, in a stable order: `emails`, `phones`, `cards`, then `field:<name>`. */
export function rulesOf(redact: ExportRedaction): string[] {
  const fields = [...new Set(redact.fields.map((f) => f.trim()).filter(Boolean))];
  return [
    ...(redact.emails ? ["emails"] : []),
    ...(redact.phones ? ["phones"] : []),
    ...(redact.cards ? ["cards"] : []),
    ...fields.map((f) => `field:${f}`),
  ];
}

export function redactor(redact: ExportRedaction): Redactor {
  const rules = rulesOf(redact);
  const fields = new Set(redact.fields.map((f) => f.trim().toLowerCase()).filter(Boolean));
  const text = (s: string): string => {
    let out = s;
    if (redact.emails && out.includes("@")) out = out.replace(EMAIL_RE, MARKER.email);
    if (redact.cards) out = out.replace(CARD_RE, (m) => (luhn(m) ? MARKER.card : m));
    if (redact.phones) out = out.replace(PHONE_RE, MARKER.phone);
    return out;
  };
  const anyText = redact.emails || redact.cards || redact.phones;
  const walk = (value: unknown, byField: boolean): unknown => {
    if (typeof value === "string") return anyText ? text(value) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, byField));
    if (value && typeof value === "object" && !(value instanceof Date)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = byField && fields.has(k.toLowerCase()) ? MARKER.field : walk(v, byField);
      }
      return out;
    }
    return value;
  };
  return {
    rules,
    text: (s) => (anyText ? text(s) : s),
    apply: <T>(value: T, opts: { fields?: boolean } = {}) =>
      rules.length === 0 ? value : (walk(value, opts.fields === true && fields.size > 0) as T),
  };
}
