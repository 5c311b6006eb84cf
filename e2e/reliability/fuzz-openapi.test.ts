// Property-based API test driven by the OpenAPI document the server serves (/api/openapi.json): for
// every operation with JSON (or no) request bodies, requests are generated from the document's own
// schemas of its path, query and body (fast-check, patterns through fc.stringMatching), and each one
// is judged valid or invalid by the document itself (ajv, JSON Schema 2020-12), not by how it was
// made. Then:
// - a valid request is accepted or answered a 4xx the document lists for the operation;
// - an invalid one (one field of a valid request made wrong: a wrong type, a value outside its enum,
//   a required field left out, a field the schema does not know) is refused with a 4xx, and a 400
//   names the field;
// - no answer is a 5xx, and every answer's status and JSON body are what the document says;
// - another organization's ids in the path are refused (never 2xx).
// Seeded and bounded in CI (`npm test`); `npm run test:fuzz` runs the full size with a fresh seed.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, type Answer } from "./fuzz/http";
import { checkAnswer, expectNoUncaught, logMark } from "./fuzz/invariants";
import { paramPools, validAuth } from "./fuzz/requests";
import { baseSeed, runProperty } from "./fuzz/seeds";
import { routeTargets, setupFixtures, type Fixtures, type RouteTarget } from "./fuzz/targets";
import { scale } from "./scale";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Cases per operation and kind (valid, invalid): about 90 operations. */
const PER_OPERATION = scale({ full: 60, ci: 4 });
const BASE_SEED = baseSeed();

type Schema = Record<string, any>;
interface Op {
  method: string;
  path: string;
  op: Schema;
  target: RouteTarget;
  body?: Schema;
  query: { name: string; required: boolean; schema: Schema }[];
}
interface Case {
  pathParams: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  /** The field an invalid case made wrong (undefined: left as generated). */
  broken?: string;
}

let doc: any;
let ajv: Ajv2020;
let f: Fixtures;
let mark: number;
const ops: Op[] = [];
const tally = { valid: 0, invalid: 0, invalid400: 0, crossOrg: 0 };
const statuses = new Map<number, number>();

const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const deref = (s: Schema): Schema =>
  s?.$ref
    ? deref(
        s.$ref
          .slice(2)
          .split("/")
          .reduce((o: any, k: string) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc),
      )
    : s;

// ---- values from schemas ----

/** Dates both databases store and a key's expiry accepts (in the future, within 5 years). */
const dateTime = fc
  .integer({ min: 1, max: 4 * 365 * 24 * 3600 })
  .map((s) => new Date(Date.now() + 3600_000 + s * 1000).toISOString());

/** Values the schema describes (mostly: the document judges each case, not this generator). */
function arb(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(input) ?? {};
  if (depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const { anyOf, oneOf, allOf, ...rest } = s;
  const branches = anyOf ?? oneOf;
  if (Array.isArray(branches))
    return fc.oneof(...branches.map((b: Schema) => arb({ ...rest, ...deref(b) }, depth + 1)));
  if (Array.isArray(allOf)) return arb(Object.assign({}, rest, ...allOf.map(deref)), depth + 1);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : undefined;
  if (type && type.length > 1) return fc.oneof(...type.map((t: string) => arb({ ...s, type: t }, depth)));
  switch (type?.[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.minimum ?? -5, max: s.maximum ?? Math.max(s.minimum ?? 0, 0) + 1000 });
    case "number":
      return fc.double({
        min: s.minimum ?? -1000,
        max: s.maximum ?? 1000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "string":
      if (s.format === "date-time") return dateTime;
      if (s.format === "uri") return fc.constantFrom("https://callbacks.invalid/fuzz", "http://fuzz.invalid/x?y=1");
      if (s.format === "email") return fc.constantFrom("fuzz@example.com", "ops+fuzz@example.org");
      if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
    case "array":
      return fc.array(arb(s.items ?? {}, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
      });
    case "object": {
      const props = Object.entries<Schema>(s.properties ?? {});
      if (props.length === 0)
        return fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, arb(v, depth + 1)])), {
        requiredKeys: s.required ?? [],
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another type than the schema's, or outside its enum. */
function wrongValue(input: Schema): unknown {
  const s = deref(input) ?? {};
  if (Array.isArray(s.enum) || s.const !== undefined) return "zz_not_one_of_them";
  const types = new Set<string>([s.type, ...(s.anyOf ?? s.oneOf ?? []).map((b: Schema) => deref(b).type)].flat());
  if (!types.has("object")) return { fuzz: true };
  if (!types.has("string")) return "not of this type";
  return 12345;
}

/** An object body with one field made wrong, and the field's name. */
function breakBody(schema: Schema, body: unknown): fc.Arbitrary<{ body: unknown; field: string }> {
  const s = deref(schema);
  const value = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const moves: fc.Arbitrary<{ body: unknown; field: string }>[] = [];
  const props = Object.keys(s.properties ?? {});
  if (props.length)
    moves.push(
      fc.constantFrom(...props).map((p) => ({ body: { ...value, [p]: wrongValue(s.properties[p]) }, field: p })),
    );
  const required: string[] = s.required ?? [];
  if (required.length)
    moves.push(
      fc.constantFrom(...required).map((p) => {
        const { [p]: _gone, ...restOf } = value;
        return { body: restOf, field: p };
      }),
    );
  if (s.additionalProperties === false)
    moves.push(fc.constant({ body: { ...value, fuzz_unknown_field: 1 }, field: "fuzz_unknown_field" }));
  return moves.length ? fc.oneof(...moves) : fc.constant({ body: [value], field: "(root)" });
}

// ---- requests ----

function caseArb(o: Op, kind: "valid" | "invalid"): fc.Arbitrary<Case> {
  const pools = paramPools(o.target, f);
  const names = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathParams = fc.record(
    Object.fromEntries(names.map((n) => [n, fc.constantFrom(...(pools[n]?.valid.length ? pools[n].valid : ["x"]))])),
  );
  const query = fc.record(Object.fromEntries(o.query.map((q) => [q.name, arb(q.schema).map((v) => String(v))])), {
    requiredKeys: o.query.filter((q) => q.required).map((q) => q.name),
  }) as fc.Arbitrary<Record<string, string>>;
  const body = o.body ? arb(o.body) : fc.constant(undefined);
  const valid = fc.record({ pathParams, query, body }) as fc.Arbitrary<Case>;
  if (kind === "valid") return valid;
  return valid.chain((c) => {
    const moves: fc.Arbitrary<Case>[] = [];
    if (o.body) moves.push(breakBody(o.body, c.body).map((b) => ({ ...c, body: b.body, broken: b.field })));
    if (o.query.length)
      moves.push(
        fc.constantFrom(...o.query).map((q) => ({
          ...c,
          query: { ...c.query, [q.name]: String(wrongQueryValue(q.schema)) },
          broken: q.name,
        })),
      );
    return moves.length ? fc.oneof(...moves) : fc.constant(c);
  });
}

function wrongQueryValue(input: Schema): string {
  const s = deref(input);
  if (s.type === "integer" || s.type === "number") return "not-a-number";
  if (s.format === "date-time") return "not-a-date";
  return "zz!not~valid\u0000";
}

function target(o: Op, c: Case): string {
  const path = o.path.replace(/\{([^}]+)\}/g, (_m, n: string) => encodeURIComponent(c.pathParams[n] ?? "x"));
  const qs = new URLSearchParams(c.query).toString();
  return qs ? `${path}?${qs}` : path;
}

async function sendCase(o: Op, c: Case): Promise<{ res: Answer; json: any }> {
  const headers: Record<string, string> = { ...validAuth(o.target.family, f) };
  let body: Buffer | undefined;
  if (c.body !== undefined) {
    headers["content-type"] = "application/json";
    body = Buffer.from(JSON.stringify(c.body));
  }
  const req = { method: o.method, target: target(o, c), headers, body };
  const res = await send(f.base, req);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  checkAnswer({ ...req, family: o.target.family }, res); // never 5xx; the envelope on every error
  let json: any;
  try {
    json = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    json = undefined;
  }
  return { res, json };
}

/** The answer is one the document lists for the operation, with the JSON body it describes. */
function expectDocumented(o: Op, res: Answer, json: any, where: string) {
  const response = o.op.responses[String(res.status)];
  expect(response, `${where}: ${res.status} is not documented: ${res.text.slice(0, 300)}`).toBeDefined();
  const type = String(res.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim();
  if (type !== "application/json" || o.method === "HEAD" || !res.text) return;
  const pointer = response.$ref
    ? `openapi.json${response.$ref}/content/application~1json/schema`
    : `openapi.json#/paths/${esc(o.path)}/${o.method.toLowerCase()}/responses/${res.status}/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer);
  expect(validate, `${where}: the document describes no JSON body for ${res.status}`).toBeDefined();
  expect(validate!(json), `${where}: ${JSON.stringify(validate!.errors)} ${res.text.slice(0, 300)}`).toBe(true);
}

let bodyValidators: Map<Op, ValidateFunction>;
/** Whether the document calls the case valid: its body and its query parameters. */
function documentSaysValid(o: Op, c: Case): boolean {
  if (o.body && !bodyValidators.get(o)!(c.body)) return false;
  for (const q of o.query) {
    const v = c.query[q.name];
    if (v === undefined) {
      if (q.required) return false;
      continue;
    }
    const s = deref(q.schema);
    const typed = s.type === "integer" || s.type === "number" ? (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v) : v;
    if (!ajv.validate(s, typed)) return false;
  }
  return true;
}

beforeAll(async () => {
  mark = logMark();
  f = await setupFixtures();
  const res = await fetch(`${f.base}/api/openapi.json`);
  doc = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(doc, "openapi.json");
  const targets = await routeTargets();
  for (const [path, item] of Object.entries<Record<string, Schema>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || method === "options" || method === "head") continue;
      if (path.includes("/upload")) continue; // multipart and tus bytes: fuzz-bodies and the tus suites
      const content = op.requestBody?.content;
      if (content && !content["application/json"]) continue;
      const pattern = path.replace(/\{([^}]+)\}/g, "[$1]");
      const t = targets.find((x) => x.pattern === pattern && x.method === method.toUpperCase());
      expect(t, `${method} ${path}: no route file`).toBeDefined();
      ops.push({
        method: method.toUpperCase(),
        path,
        op,
        target: t!,
        body: content?.["application/json"]?.schema,
        query: (op.parameters ?? [])
          .map(deref)
          .filter((p: Schema) => p.in === "query")
          .map((p: Schema) => ({ name: p.name, required: !!p.required, schema: p.schema })),
      });
    }
  }
  bodyValidators = new Map(
    ops
      .filter((o) => o.body)
      .map((o) => [
        o,
        ajv.getSchema(
          `openapi.json#/paths/${esc(o.path)}/${o.method.toLowerCase()}/requestBody/content/application~1json/schema`,
        )!,
      ]),
  );
  console.log(
    `[fuzz] openapi: ${ops.length} operations x ${PER_OPERATION} cases of each kind, seed ${BASE_SEED} ` +
      `(replay: FUZZ_SEED=${BASE_SEED})`,
  );
});

afterAll(() => {
  const histogram = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]));
  console.log(`[fuzz] openapi: ${JSON.stringify(tally)}; statuses ${JSON.stringify(histogram)}`);
});

describe("the operations of the document", () => {
  it("are found, with their route files", () => {
    expect(ops.length).toBeGreaterThan(50);
  });

  it("valid requests: accepted, or a 4xx the document lists; every answer as documented", async () => {
    for (const o of ops) {
      await runProperty({
        label: `openapi valid ${o.method} ${o.path}`,
        base: BASE_SEED,
        numRuns: PER_OPERATION,
        arb: caseArb(o, "valid"),
        replay: "npx vitest run --project reliability e2e/reliability/fuzz-openapi.test.ts",
        test: async (c) => {
          const { res, json } = await sendCase(o, c);
          const where = `${o.method} ${target(o, c).slice(0, 200)} ${JSON.stringify(c.body)?.slice(0, 300)}`;
          expectDocumented(o, res, json, where);
          if (documentSaysValid(o, c)) tally.valid++;
        },
      });
    }
    expect(tally.valid).toBeGreaterThan(ops.length); // most generated cases are valid ones
  });

  it("invalid requests: refused with a 4xx, a 400 naming the field", async () => {
    for (const o of ops) {
      if (!o.body && o.query.length === 0) continue;
      await runProperty({
        label: `openapi invalid ${o.method} ${o.path}`,
        base: BASE_SEED,
        numRuns: PER_OPERATION,
        arb: caseArb(o, "invalid"),
        replay: "npx vitest run --project reliability e2e/reliability/fuzz-openapi.test.ts",
        test: async (c) => {
          if (c.broken === undefined || documentSaysValid(o, c)) return; // the change left it valid
          tally.invalid++;
          const { res, json } = await sendCase(o, c);
          const where = `${o.method} ${target(o, c).slice(0, 200)} ${JSON.stringify(c.body)?.slice(0, 300)}`;
          expect(res.status >= 400 && res.status < 500, `${where}: an invalid request answered ${res.status}`).toBe(
            true,
          );
          expectDocumented(o, res, json, where);
          // A pin to a version the agent does not have is checked before the rest of the body
          // (docs/api.md, invalid_agent_version): the request is wrong there too, and that is named.
          const pin = (c.body as { agent_version?: unknown } | undefined)?.agent_version;
          const pinRefused = json?.error?.code === "invalid_agent_version" && pin !== undefined;
          if (res.status === 400 && !pinRefused) {
            tally.invalid400++;
            expect(JSON.stringify(json.error), `${where}: the error does not name ${c.broken}`).toContain(
              c.broken === "(root)" ? "" : c.broken,
            );
          }
        },
      });
    }
    expect(tally.invalid400).toBeGreaterThan(ops.length / 2);
  });

  it("another organization's ids in the path are refused", async () => {
    const other: Record<string, string> = {
      org_id: f.orgB,
      agent_id: f.agents.otherConversational,
      run_id: f.otherRunId,
      session_id: f.otherSessionId,
    };
    for (const o of ops) {
      const names = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((n) => other[n]);
      for (const name of names) {
        const pools = paramPools(o.target, f);
        const valid = fc.sample(caseArb(o, "valid"), { seed: BASE_SEED, numRuns: 1 })[0]!;
        const c = { ...valid, pathParams: { ...valid.pathParams, [name]: other[name]! } };
        if (name === "agent_id" && pools.agent_id?.valid.includes(f.agents.workflow))
          c.pathParams.agent_id = f.agents.otherWorkflow;
        const { res, json } = await sendCase(o, c);
        const where = `${o.method} ${target(o, c)} (${name} of another organization)`;
        expect(res.status >= 400 && res.status < 500, `${where}: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
        expectDocumented(o, res, json, where);
        tally.crossOrg++;
      }
    }
    expect(tally.crossOrg).toBeGreaterThan(40);
  });

  it("left no uncaught error in the server log", () => {
    expectNoUncaught(mark);
  });
});
