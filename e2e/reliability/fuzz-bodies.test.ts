// Bodies at the edges, on every route that takes a JSON body (from the build's route table) and on
// the upload route: JSON bodies of 1 MiB - 1, 1 MiB and 1 MiB + 1 bytes (with a Content-Length and
// chunked, padded with 1- to 4-byte characters and escapes); deep nesting, huge numbers, NUL and
// unpaired surrogates in each field of the example bodies; multipart forms well-formed, truncated
// and malformed. Every answer meets the invariants of fuzz-routes.test.ts, and where the outcome is
// known it is asserted exactly (413 past 1 MiB, 400 for what the database cannot hold, the file of
// a well-formed form).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../lib/validate";
import { MIB, send } from "./fuzz/http";
import { checkAnswer, logMark, expectNoUncaught } from "./fuzz/invariants";
import { multipartArb } from "./fuzz/multipart";
import { validAuth, validPath } from "./fuzz/requests";
import { baseSeed, runProperty } from "./fuzz/seeds";
import { routeTargets, setupFixtures, type Fixtures, type RouteTarget } from "./fuzz/targets";
import { nest, toJson } from "./fuzz/values";
import { scale } from "./scale";

const SIZE_CASES = scale({ full: 400, ci: 60 });
const VALUE_CASES = scale({ full: 600, ci: 80 });
const MULTIPART_CASES = scale({ full: 700, ci: 100 });
const BASE_SEED = baseSeed();

const all = await routeTargets();
/** Routes whose body is JSON: those with an example body (the route lists of e2e/api). */
const jsonRoutes = all.filter((t) => t.examples.length > 0 && ["POST", "PUT", "PATCH"].includes(t.method));
const upload = all.find((t) => t.method === "POST" && t.pattern === "/api/agents/[agent_id]/upload")!;

let f: Fixtures;
let mark: number;
let sent = 0;
const outcomes = new Map<string, number>();
const tally = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
beforeAll(async () => {
  mark = logMark();
  f = await setupFixtures();
  console.log(
    `[fuzz] bodies: ${SIZE_CASES} size, ${VALUE_CASES} value and ${MULTIPART_CASES} multipart cases over ` +
      `${jsonRoutes.length} JSON routes and the upload route, seed ${BASE_SEED} (replay: FUZZ_SEED=${BASE_SEED})`,
  );
});
afterAll(() =>
  console.log(`[fuzz] bodies: ${sent} requests answered: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`),
);

const replay = (name: string) =>
  `npx vitest run --project reliability e2e/reliability/fuzz-bodies.test.ts -t "${name}"`;

async function post(t: RouteTarget, body: Buffer, chunked = false, headers: Record<string, string> = {}) {
  const res = await send(f.base, {
    method: t.method,
    target: validPath(t, f),
    headers: { "content-type": "application/json", ...validAuth(t.family, f), ...headers },
    body,
    chunked,
  });
  sent++;
  checkAnswer({ method: t.method, target: validPath(t, f), family: t.family }, res);
  return { ...res, json: res.text ? (JSON.parse(res.text) as any) : undefined };
}

/** The route's first example with its first key's value replaced by the JSON text `value`. */
function withValue(t: RouteTarget, value: string, key?: string): { text: string; key: string } {
  const example = t.examples[0]!(f) as Record<string, unknown>;
  const k = key ?? Object.keys(example)[0] ?? "value";
  const entries = Object.entries(example).filter(([x]) => x !== k);
  const fields = [...entries.map(([x, v]) => `${JSON.stringify(x)}:${toJson(v)}`), `${JSON.stringify(k)}:${value}`];
  return { text: `{${fields.join(",")}}`, key: k };
}

const PADS = [
  { unit: "a", note: "ASCII" },
  { unit: "é", note: "2-byte" },
  { unit: "€", note: "3-byte" },
  { unit: "💥", note: "4-byte" },
  { unit: "\\u00e9", note: "escapes" },
];

/** A JSON body of exactly `size` bytes: the example with a padded string in its first field. */
function sizedBody(t: RouteTarget, size: number, unit: string): Buffer {
  const { text } = withValue(t, '"\u0001"');
  const [prefix, suffix] = text.split("\u0001") as [string, string];
  const room = size - Buffer.byteLength(prefix) - Buffer.byteLength(suffix);
  const per = Buffer.byteLength(unit);
  const pad = unit.repeat(Math.floor(room / per)) + "a".repeat(room % per);
  const body = Buffer.from(prefix + pad + suffix, "utf8");
  expect(body.length).toBe(size);
  return body;
}

describe("JSON bodies around 1 MiB", () => {
  it("over 1 MiB: 413 payload_too_large, declared or streamed; up to 1 MiB: read", async () => {
    expect(jsonRoutes.length).toBeGreaterThan(10);
    await runProperty({
      label: "sizes",
      base: BASE_SEED,
      numRuns: SIZE_CASES,
      replay: replay("over 1 MiB"),
      arb: fc.record({
        route: fc.constantFrom(...jsonRoutes),
        size: fc.constantFrom(MIB - 1, MIB, MIB + 1, MIB - 1, MIB, MIB + 1, MIB + 4096, 2 * MIB),
        pad: fc.constantFrom(...PADS),
        chunked: fc.boolean(),
      }),
      test: async ({ route, size, pad, chunked }) => {
        const res = await post(route, sizedBody(route, size, pad.unit), chunked);
        const label = `${route.method} ${route.pattern}, ${size} bytes (${pad.note}${chunked ? ", chunked" : ""})`;
        tally(`size ${size > MIB ? "over" : "within"} -> ${res.status}`);
        if (size > MIB) {
          expect({ status: res.status, code: res.json?.error?.code }, label).toEqual({
            status: 413,
            code: "payload_too_large",
          });
          expect(res.json.error.details, label).toEqual({ limit_bytes: MIB });
        } else {
          expect(res.status, `${label}: ${res.text.slice(0, 300)}`).not.toBe(413);
        }
      },
    });
  });
});

describe("JSON values the database cannot hold, and every other shape", () => {
  const value = fc.oneof(
    fc.record({ kind: fc.constant("deep" as const), depth: fc.constantFrom(1, 50, 98, 99, 100, 101, 1000, 100_000) }),
    fc.record({ kind: fc.constant("deep objects" as const), depth: fc.constantFrom(99, 100, 5000) }),
    fc.record({
      kind: fc.constant("nul" as const),
      text: fc.constantFrom('"\\u0000"', '"a\\u0000b"', '["ok","\\u0000"]'),
    }),
    fc.record({
      kind: fc.constant("nul key" as const),
      text: fc.constantFrom('{"a\\u0000":1}', '{"\\u0000":{"x":1}}'),
    }),
    fc.record({
      kind: fc.constant("surrogate" as const),
      text: fc.constantFrom('"\\ud800"', '"x\\udfff"', '"\\udbff\\ud800"', '{"k":"\\udc00"}'),
    }),
    fc.record({
      kind: fc.constant("fine" as const),
      text: fc.constantFrom(
        '"\\ud83d\\udca5"',
        '"💥"',
        '"e\\u0301"',
        '"\\u202e"',
        '"\\ufeff"',
        "1e400",
        "-1e400",
        "123456789012345678901234567890",
        "-0",
        "1e-400",
        '"9999-12-31T23:59:59Z"',
        "[]",
        "{}",
        "null",
        '"x"',
      ),
    }),
  );

  it("refuses NUL, unpaired surrogates and nesting past MAX_JSON_DEPTH with 400, in any field", async () => {
    await runProperty({
      label: "values",
      base: BASE_SEED,
      numRuns: VALUE_CASES,
      replay: replay("refuses NUL"),
      arb: fc.record({ route: fc.constantFrom(...jsonRoutes), value, field: fc.nat() }),
      test: async ({ route, value: v, field }) => {
        const keys = Object.keys(route.examples[0]!(f) as object);
        const key = keys.length ? keys[field % keys.length] : undefined;
        const text =
          v.kind === "deep"
            ? nest(v.depth, '"x"', false)
            : v.kind === "deep objects"
              ? nest(v.depth, '"x"', true)
              : v.text;
        const body = withValue(route, text, key);
        const res = await post(route, Buffer.from(body.text, "utf8"));
        const label = `${route.method} ${route.pattern} ${body.key}=${text.slice(0, 80)}: ${res.status} ${res.text.slice(0, 300)}`;
        tally(`value ${v.kind} -> ${res.status}`);
        const refused = (pattern: RegExp) => {
          expect({ status: res.status, code: res.json?.error?.code }, label).toEqual({
            status: 400,
            code: "invalid_request",
          });
          expect(res.json.error.message, label).toMatch(pattern);
          expect(res.json.error.details.fields[0].field.startsWith(body.key), label).toBe(true);
        };
        if ((v.kind === "deep" || v.kind === "deep objects") && v.depth >= MAX_JSON_DEPTH) refused(/nested deeper/);
        else if (v.kind === "nul" || v.kind === "nul key") refused(/NUL/);
        else if (v.kind === "surrogate") refused(/surrogate/);
        else expect(res.status, label).toBeLessThan(500);
      },
    });
  });
});

describe("multipart uploads (docs/api.md, Upload)", () => {
  it("stores a well-formed form's file; refuses truncated and malformed forms with 400/415, never 5xx", async () => {
    await runProperty({
      label: "multipart",
      base: BASE_SEED,
      numRuns: MULTIPART_CASES,
      replay: replay("stores a well-formed"),
      arb: multipartArb,
      test: async (m) => {
        const target = validPath(upload, f);
        const res = await send(f.base, {
          method: "POST",
          target,
          headers: { ...validAuth("access_key", f), "content-type": m.contentType },
          body: m.bytes,
        });
        sent++;
        checkAnswer({ method: "POST", target, family: "access_key" }, res);
        const body = res.text ? JSON.parse(res.text) : undefined;
        const label = `${m.note}: ${res.status} ${res.text.slice(0, 300)}`;
        tally(`multipart ${m.expect} -> ${res.status}`);
        if (m.expect === "stored") {
          expect(res.status, label).toBe(200);
          expect(body.file_id, label).toMatch(/^fi_[0-9a-f]{32}$/);
          expect(body.size_bytes, label).toBe(m.fileBytes);
        } else if (m.expect === "415") {
          expect({ status: res.status, code: body?.error?.code }, label).toEqual({
            status: 415,
            code: "unsupported_media_type",
          });
        } else if (m.expect === "400") {
          expect(res.status, label).toBe(400);
        } else {
          expect([200, 400], label).toContain(res.status);
        }
      },
    });
  });
});

describe("the server", () => {
  it("logged no uncaught exception or unhandled rejection during the fuzz", () => {
    expectNoUncaught(mark);
  });
});
