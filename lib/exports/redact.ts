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
// characters and a top-level domain of letters. Letters and digits of any script (RFC 6531
// addresses such as `josé@exämple.de` or `用户@例子.广告`); matched after NFKC, so a full-width `＠`
// counts as `@`.
const EMAIL_RE =
  /(?<![\p{L}\p{N}\p{M}._%+-])[\p{L}\p{N}\p{M}._%+-]{1,64}@[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}-]{0,62}\.){1,8}\p{L}[\p{L}\p{M}]{1,23}(?![\p{L}\p{N}\p{M}-])/gu;

// 13 to 19 digits standing alone (not part of an id, a longer number or a decimal): either with
// single spaces or dashes anywhere between them, or in groups of 2 to 7 digits with one separator
// used throughout (`4111.1111.1111.1111`, `4111  1111  1111  1111`). The first digit is one that
// card networks issue (2-6): Unix times in milliseconds (13 digits starting with 1) are never
// candidates. The digit count and Luhn decide (isCard below).
const CARD_RE =
  /(?<![\w.,+-])(?:[2-6](?:[ -]?\d){12,18}|[2-6]\d{1,6}( {2}|[ .-])\d{2,7}(?:\1\d{1,7}){1,4})(?![\w]|[.,-]\d)/g;

// Phone numbers: international with `+` or the `00` prefix (`+44 20 7946 0958`, `0044 20 7946
// 0958`: 7 to 15 digits, single spaces, dots or dashes; the `00` form needs a separator, since a
// zero-padded number is no phone), North American `(415) 555-0123` / `415-555-0123` /
// `415.555.0123`, and national numbers starting with 0 that have at least one separator (`030
// 1234567`, `020 7946 0958`). A bare run of digits is never taken for a phone number: ids, amounts
// and timestamps are digits too.
const PHONE_RE = new RegExp(
  [
    String.raw`(?<![\w+])\+[1-9](?:[ .-]?\d){6,14}(?![\w]|[.-]\d)`,
    String.raw`(?<![\w+.:/-])00[1-9]\d{0,3}[ .-]\d(?:[ .-]?\d){5,11}(?![\w]|[.-]\d)`,
    String.raw`(?<![\w(])\(\d{3}\) ?\d{3}[ .-]\d{4}(?![\w]|[.-]\d)`,
    String.raw`(?<![\w.:/-])\d{3}([.-])\d{3}\1\d{4}(?![\w]|[.:/-]\d)`,
    String.raw`(?<![\w.:/-])0\d{1,4}[ /-]\d{3,8}(?:[ -]\d{2,4}){0,2}(?![\w]|[.:/-]\d)`,
  ].join("|"),
  "g",
);

/** 13 to 19 digits that pass Luhn. */
function isCard(s: string): boolean {
  const digits = s.replace(/\D/g, "").length;
  return digits >= 13 && digits <= 19 && luhn(s);
}

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

/**
 * `s` in NFKC (full-width digits and `＠` become ASCII, ligatures letters) with, for each of its
 * UTF-16 units, where the original character it came from starts and ends: matches are found in the
 * normalized text and replaced in the original, so the text around them is exported as written.
 * Each starter with its combining marks is normalized on its own.
 */
function normalized(s: string): { text: string; from: Int32Array; to: Int32Array } | undefined {
  if (s.normalize("NFKC") === s) return undefined;
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (const m of s.matchAll(/\P{M}\p{M}*|\p{M}+/gsu)) {
    const n = m[0].normalize("NFKC");
    parts.push(n);
    for (let i = 0; i < n.length; i++) {
      from.push(m.index);
      to.push(m.index + m[0].length);
    }
  }
  return { text: parts.join(""), from: Int32Array.from(from), to: Int32Array.from(to) };
}

type Range = [start: number, end: number, marker: string];

/** The ranges of `s` that `re` matches and `keep` accepts. */
function ranges(s: string, re: RegExp, marker: string, keep: (m: string) => boolean = () => true): Range[] {
  const out: Range[] = [];
  for (const m of s.matchAll(re)) if (keep(m[0])) out.push([m.index, m.index + m[0].length, marker]);
  return out;
}

export function redactor(redact: ExportRedaction): Redactor {
  const rules = rulesOf(redact);
  const fields = new Set(redact.fields.map((f) => f.trim().toLowerCase()).filter(Boolean));
  const text = (s: string): string => {
    const norm = normalized(s);
    const t = norm?.text ?? s;
    // Emails first, then cards, then phones: a later match inside an earlier one is dropped.
    const found = [
      ...(redact.emails && /[@\uFE6B\uFF20]/.test(s) ? ranges(t, EMAIL_RE, MARKER.email) : []),
      ...(redact.cards ? ranges(t, CARD_RE, MARKER.card, isCard) : []),
      ...(redact.phones ? ranges(t, PHONE_RE, MARKER.phone) : []),
    ];
    if (found.length === 0) return s;
    const covered = new Uint8Array(t.length);
    const taken: Range[] = [];
    for (const [a, b, marker] of found) {
      if (covered.subarray(a, b).includes(1)) continue;
      covered.fill(1, a, b);
      taken.push(norm ? [norm.from[a]!, norm.to[b - 1]!, marker] : [a, b, marker]);
    }
    taken.sort((x, y) => x[0] - y[0]);
    let out = "";
    let at = 0;
    for (const [start, end, marker] of taken) {
      out += s.slice(at, Math.max(at, start)) + marker;
      at = Math.max(at, end);
    }
    return out + s.slice(at);
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
