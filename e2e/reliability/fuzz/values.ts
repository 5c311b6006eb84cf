// fast-check generators of values: awkward strings and numbers, JSON that JSON.stringify cannot
// write (duplicate keys, __proto__, 1e400), deep nesting, request bodies mutated from examples; and
// the encodings that put any string into a path, a header or a header's extended value.
import fc from "fast-check";
import type { Fixtures, RouteTarget } from "./targets";

/** A raw JSON fragment (a number JSON.stringify cannot write, e.g. 1e400). */
class Raw {
  constructor(readonly text: string) {}
}
/** An object as a list of entries: duplicate keys and `__proto__` survive. */
class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

/** JSON text of a generated value (Raw and Entries written as they are). */
export function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Entries) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\ufeff",
  "\u202etxt.exe",
  "💥",
  "e\u0301",
  "ＡＢＣ",
  "null",
  "true",
  "[]",
  "{}",
  "\r\n",
  "%00",
  "%zz",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "'; DROP TABLE runs; --",
  "$(echo pwned)",
  "{{item}}",
  `fi_${"0".repeat(32)}`,
  "__proto__",
  "constructor",
  "x".repeat(5000),
  "9".repeat(400),
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "2024-02-30T25:61:61Z",
  "+275760-09-13T00:00:00.001Z",
  "-271821-04-20T00:00:00Z",
  "1970-01-01",
];
const HUGE_NUMBERS = [
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "-0",
  "1e-400",
  "9007199254740993",
  "18446744073709551616",
  "1.7976931348623157e308",
  "0.1e1",
  "1E+2",
];

export const fuzzString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const fuzzNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...HUGE_NUMBERS).map((t) => new Raw(t)),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, -(2 ** 63)),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.boolean(), fuzzNumber, {
  weight: 3,
  arbitrary: fuzzString,
});

const { node: jsonNode } = fc.letrec<{ node: unknown; arr: unknown[]; obj: Entries }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("arr"), tie("obj")),
  arr: fc.array(tie("node"), { maxLength: 4 }),
  obj: fc
    .array(fc.tuple(fc.oneof(fuzzString, fc.constantFrom("file_id", "message", "rows", "name")), tie("node")), {
      maxLength: 4,
    })
    .map((e) => new Entries(e)),
}));
export const jsonValue = jsonNode as fc.Arbitrary<unknown>;

/** `value` wrapped `depth` times in arrays or objects. */
export function nest(depth: number, value: string, objects: boolean): string {
  return objects
    ? `${'{"a":'.repeat(depth)}${value}${"}".repeat(depth)}`
    : `${"[".repeat(depth)}${value}${"]".repeat(depth)}`;
}

/** A body: JSON text (to send as it is), or raw bytes. */
export type BodySpec =
  { kind: "json"; text: string; note?: string } | { kind: "bytes"; bytes: Buffer; note: string } | { kind: "none" };

function mutateExample(example: unknown): fc.Arbitrary<BodySpec> {
  const obj = example && typeof example === "object" && !Array.isArray(example) ? (example as object) : undefined;
  const keys = obj ? Object.keys(obj) : [];
  const json = (v: unknown, note?: string): BodySpec => ({ kind: "json", text: toJson(v), note });
  const variants: fc.Arbitrary<BodySpec>[] = [fc.constant(json(example, "example"))];
  if (obj && keys.length) {
    variants.push(
      fc
        .tuple(fc.constantFrom(...keys), jsonValue)
        .map(([k, v]) =>
          json(
            new Entries(Object.entries(obj).map(([x, old]): [string, unknown] => [x, x === k ? v : old])),
            `${k} replaced`,
          ),
        ),
      fc
        .tuple(fc.constantFrom(...keys), fc.integer({ min: 1, max: 20_000 }), fc.boolean())
        .map(([k, depth, objects]) => ({
          kind: "json" as const,
          text: `{${Object.entries(obj)
            .map(([x, v]) => `${JSON.stringify(x)}:${x === k ? nest(depth, '"deep"', objects) : toJson(v)}`)
            .join(",")}}`,
          note: `${k} nested ${depth} deep`,
        })),
      fc
        .constantFrom(...keys)
        .map((k) => json(Object.fromEntries(Object.entries(obj).filter(([x]) => x !== k)), `${k} removed`)),
    );
  }
  if (obj) {
    variants.push(
      fc
        .tuple(fuzzString, jsonValue)
        .map(([k, v]) => json(new Entries([...Object.entries(obj), [k, v]]), "extra field")),
    );
  }
  return fc.oneof(...variants);
}

const MALFORMED_JSON: BodySpec[] = [
  { kind: "bytes", bytes: Buffer.alloc(0), note: "empty" },
  { kind: "bytes", bytes: Buffer.from("   \n"), note: "whitespace" },
  { kind: "bytes", bytes: Buffer.from('{"message": "hi"'), note: "truncated" },
  { kind: "bytes", bytes: Buffer.from('{"message": "hi"}}'), note: "trailing brace" },
  { kind: "bytes", bytes: Buffer.from("{'message': 'hi'}"), note: "single quotes" },
  { kind: "bytes", bytes: Buffer.from('{"message": NaN}'), note: "NaN literal" },
  { kind: "bytes", bytes: Buffer.from('{"message": "hi" /* c */}'), note: "comment" },
  { kind: "bytes", bytes: Buffer.from('\ufeff{"message": "hi"}'), note: "BOM" },
  {
    kind: "bytes",
    bytes: Buffer.from([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    note: "invalid UTF-8",
  },
  { kind: "bytes", bytes: Buffer.from('{"message":"a\u0000b"}'), note: "raw NUL in a string" },
  { kind: "bytes", bytes: Buffer.from('{"message":"\\u0000"}'), note: "escaped NUL" },
  { kind: "bytes", bytes: Buffer.from('{"message":"\\ud800"}'), note: "lone surrogate" },
  { kind: "bytes", bytes: Buffer.from('{"a":1,"a":2}'), note: "duplicate keys" },
  { kind: "bytes", bytes: Buffer.from('{"__proto__":{"admin":true},"message":"hi"}'), note: "__proto__" },
  { kind: "bytes", bytes: Buffer.from("null"), note: "null" },
  { kind: "bytes", bytes: Buffer.from("[]"), note: "array" },
  { kind: "bytes", bytes: Buffer.from('"hi"'), note: "string" },
  { kind: "bytes", bytes: Buffer.from("1e400"), note: "huge number" },
  { kind: "bytes", bytes: Buffer.from(nest(100_000, "1", false)), note: "nested 100000 deep" },
  { kind: "bytes", bytes: Buffer.from(nest(50_000, "1", true)), note: "objects nested 50000 deep" },
  { kind: "bytes", bytes: Buffer.from(nest(100_000, "", false).slice(0, 100_000)), note: "unclosed nesting" },
];

export function bodyArb(t: RouteTarget, f: Fixtures): fc.Arbitrary<BodySpec> {
  const examples = t.examples.length ? t.examples.map((e) => e(f)) : [{}];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...examples).chain(mutateExample) },
    { weight: 2, arbitrary: jsonValue.map((v): BodySpec => ({ kind: "json", text: toJson(v), note: "any JSON" })) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    { weight: 1, arbitrary: fc.constant<BodySpec>({ kind: "none" }) },
  );
}

/** Percent-encodes the UTF-8 bytes of `s` (lone surrogates become U+FFFD, as any client sends them). */
const encodeBytes = (s: string) =>
  [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
export const encodeLoose = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeBytes(s);
  }
};
/** A control character other than tab: a header line holding one is malformed. */
export const hasControl = (s: string) => [...s].some((c) => (c < " " && c !== "\t") || c === "\x7f");
/** RFC 8187 ext-value (filename*): every byte that is not an attr-char percent-encoded. */
export const encodeExtValue = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, "0").toUpperCase()}`,
    )
    .join("");
/** Bytes as a latin1 string: how http.request writes UTF-8 bytes of a path or header verbatim. */
export const rawUtf8 = (s: string) => Buffer.from(s, "utf8").toString("latin1");
/** A header value of any bytes a client can put on the wire (no control characters but tab). */
export const headerValue = (s: string) =>
  [...rawUtf8(s)].map((c) => (c === "\t" || (c >= " " && c !== "\x7f") ? c : "_")).join("");
/** Raw path bytes: anything but the characters that end or split a path, and controls. */
export const pathBytes = (s: string) =>
  [...rawUtf8(s)].map((c) => (c > " " && c !== "\x7f" && !"/?#".includes(c) ? c : "_")).join("");

/** A fuzzed path segment, sent encoded, raw, or as one of the awkward forms. */
