// The fuzzing harness of the reliability suites (fuzz-*.test.ts): the build's route table (every
// app/**/route.ts and the methods it exports, scripts/route-table.mjs) so that a new route is fuzzed
// without being listed, fixtures on the shared test server, raw HTTP requests with a client time
// limit (a hang is a failure), fast-check generators, and the invariants every answer must meet.
import { readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import fc from "fast-check";
import { expect } from "vitest";
import { ERROR_STATUS } from "../../lib/errors";
import { matchRoute, routeEntries, type RouteEntry } from "../../lib/http/routes";
import { routeTable } from "../../scripts/route-table.mjs";
import { addMember, invite, signIn, type ConsoleSession } from "../api/console";
import { FULL } from "./scale";
import { CONSOLE_ROUTES, type ConsoleFixtures } from "../api/console-routes";
import {
  call,
  createAgent,
  ctx,
  ECHO_AGENT,
  mintKey,
  revokeKey,
  SIMPLE_WORKFLOW,
  type RouteUnderTest,
} from "../api/helpers";
import { ACCESS_KEY_ROUTES } from "../api/routes";

const root = path.resolve(import.meta.dirname, "../..");

/** A request that gets no answer within this is a hang, and a failure. */
export const HANG_MS = 30_000;
export const MIB = 1024 * 1024;

// ---- seeds ----

/**
 * The seed of a suite: FUZZ_SEED replays a run. Otherwise the bounded CI size uses a fixed seed, so
 * that `npm test` passes or fails the same way every time (a new case must not fail an unrelated
 * change), and the full size (`npm run test:reliability`) draws a fresh one to explore further.
 * Either way the suite prints it.
 */
export const CI_SEED = 20261126;
export const baseSeed = (): number =>
  process.env.FUZZ_SEED
    ? Number(process.env.FUZZ_SEED)
    : FULL
      ? (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0
      : CI_SEED;

/** A property's own seed: the suite's mixed with the property's name (filtering tests changes nothing). */
export function seedFor(base: number, label: string): number {
  let h = base | 0;
  for (const c of label) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

/**
 * Runs a property with the suite's seed (FUZZ_PATH, fast-check's path of a failing case, goes
 * straight to that case). A failure names the counterexample and how to replay it.
 */
export async function runProperty<T>(opts: {
  label: string;
  base: number;
  numRuns: number;
  arb: fc.Arbitrary<T>;
  test: (value: T) => Promise<void>;
  /** Replay command after FUZZ_SEED=... FUZZ_PATH=... */
  replay: string;
}) {
  const out = await fc.check(fc.asyncProperty(opts.arb, opts.test), {
    seed: seedFor(opts.base, opts.label),
    path: process.env.FUZZ_PATH || undefined,
    numRuns: opts.numRuns,
  });
  if (out.failed) {
    throw new Error(
      `${fc.defaultReportMessage(out)}\n\nReplay: FUZZ_SEED=${opts.base} FUZZ_PATH=${out.counterexamplePath} ${opts.replay}`,
      { cause: out.errorInstance },
    );
  }
  return out.numRuns;
}

// ---- raw HTTP ----

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

export interface Sendable {
  method: string;
  /** Request target as sent on the request line (path and query, already encoded or raw). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body with chunked transfer coding (no Content-Length). */
  chunked?: boolean;
}

/** The body as sent, decompressed (a fuzzed Accept-Encoding may have asked for gzip or br). */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (!body.length) return body;
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  return body;
}

/**
 * One request over node:http (raw paths and header bytes, no normalisation) on a connection of its
 * own, so that no case inherits a connection an earlier one left behind; a hang rejects.
 */
export function send(base: string, r: Sendable): Promise<Answer> {
  const started = performance.now();
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(new Error(`hang: no complete answer within ${HANG_MS} ms`));
    }, HANG_MS);
    const headers: Record<string, string> = { ...r.headers };
    if (r.body && !r.chunked) headers["content-length"] = String(r.body.length);
    const req = http.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.target, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(e);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text: decode(Buffer.concat(chunks), res.headers["content-encoding"]).toString("utf8"),
            ms: Math.round(performance.now() - started),
          });
        });
      },
    );
    req.on("error", (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(e);
    });
    if (r.body && r.chunked) {
      // Two chunks, so that the body really goes out chunked.
      const half = Math.floor(r.body.length / 2);
      req.write(r.body.subarray(0, half));
      req.end(r.body.subarray(half));
    } else req.end(r.body);
  });
}

// ---- routes ----

export type Family = "access_key" | "user_token" | "console" | "public" | "auth_js" | "catch_all";

export interface RouteTarget {
  pattern: string;
  method: string;
  family: Family;
  /** Dynamic segments in order: `agent_id`, `...path`, `[...path]` (optional catch-all). */
  params: string[];
  /** The kind of agent the route is for, when the route lists say. */
  agentKind?: "conversational" | "workflow";
  /** Example bodies (from e2e/api/routes.ts, console-routes.ts and MANAGEMENT_EXAMPLES). */
  examples: ((f: Fixtures) => unknown)[];
  /** Ends the caller's console sessions (sign-out everywhere): the fuzz signs in again. */
  endsSessions: boolean;
}

/** Which authentication a route takes, from where it lives (ARCHITECTURE.md: public, management, console). */
export function familyOf(pattern: string): Family {
  if (pattern === "/api/[...path]") return "catch_all";
  if (pattern.startsWith("/api/auth/")) return "auth_js";
  if (pattern.startsWith("/api/console/")) return "console";
  if (pattern.startsWith("/api/v1/")) return "user_token";
  if (pattern.startsWith("/api/agents/") || pattern.startsWith("/api/workflows/")) return "access_key";
  return "public";
}

/** Management API examples (the public and console ones come from the route lists of e2e/api). */
const MANAGEMENT_EXAMPLES: Record<string, unknown[]> = {
  "POST /api/v1/organizations/[org_id]/access-keys": [{ name: "fuzz", permissions: ["agents:invoke"] }],
  "POST /api/v1/organizations/[org_id]/agents": [ECHO_AGENT, SIMPLE_WORKFLOW],
  "PATCH /api/v1/organizations/[org_id]/agents/[agent_id]": [{ name: "fuzzed" }, { runtime: { type: "echo" } }],
};

/** Every (route, method) of the build's route table, with what the route lists of e2e/api add. */
export async function routeTargets(): Promise<RouteTarget[]> {
  const table: RouteEntry[] = routeEntries(await routeTable(root));
  const examples = new Map<string, ((f: Fixtures) => unknown)[]>(
    Object.entries(MANAGEMENT_EXAMPLES).map(([k, list]) => [k, list.map((b) => () => b)]),
  );
  const kinds = new Map<string, Set<string>>();
  const add = (key: string, body: (f: Fixtures) => unknown) => examples.set(key, [...(examples.get(key) ?? []), body]);
  for (const r of ACCESS_KEY_ROUTES as RouteUnderTest[]) {
    const entry = matchRoute(table, r.path("agt_0fuzz0000000000000000"));
    if (!entry) throw new Error(`e2e/api/routes.ts: ${r.name} reaches no route`);
    const key = `${r.method} ${entry.pattern}`;
    kinds.set(key, (kinds.get(key) ?? new Set()).add(r.kind ?? "conversational"));
    if (r.body !== undefined) add(key, () => r.body);
  }
  const endsSessions = new Set<string>();
  for (const r of CONSOLE_ROUTES) {
    const body = r.body;
    if (body) add(`${r.method} ${r.pattern}`, (f) => body(f.console));
    if (r.endsSessions) endsSessions.add(`${r.method} ${r.pattern}`);
  }
  return table.flatMap((entry) =>
    entry.methods.map((method): RouteTarget => {
      const key = `${method} ${entry.pattern}`;
      const kind = kinds.get(key);
      return {
        pattern: entry.pattern,
        method,
        family: familyOf(entry.pattern),
        params: [...entry.pattern.matchAll(/\[+(\.\.\.)?([^\]]+)\]+/g)].map((m) => m[0]),
        agentKind: kind?.size === 1 ? ([...kind][0] as "conversational" | "workflow") : undefined,
        examples: examples.get(key) ?? [],
        endsSessions: endsSessions.has(key),
      };
    }),
  );
}

// ---- fixtures ----

export interface Fixtures {
  base: string;
  host: string;
  orgA: string;
  orgB: string;
  tokens: { admin: string; support: string; orgB: string };
  keys: { valid: string; noInvoke: string; revoked: string; otherOrg: string };
  agents: { conversational: string; workflow: string; otherConversational: string; otherWorkflow: string };
  sessionId: string;
  messageIds: string[];
  otherSessionId: string;
  runIds: string[];
  otherRunId: string;
  exceptionId: string;
  fileId: string;
  uploadId: string;
  downloadToken: string;
  /** For PATCH and DELETE: resources the fuzz may change or remove without disturbing the rest. */
  victims: { agents: string[]; keys: string[]; members: string[]; invitations: string[] };
  cookies: { admin: string; support: string };
  /** Signs the fuzz's console users in again (after a fuzzed sign-out-everywhere). */
  refreshSessions(): Promise<void>;
  console: ConsoleFixtures;
}

const REVIEW_WORKFLOW = {
  name: "fuzz review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "look", type: "review", when: "item.review" }],
    output: { filename: "out.csv", format: "csv" },
  },
};

async function waitForRun(key: string, agentId: string, runId: string, done: (r: any) => boolean) {
  for (let i = 0; i < 600; i++) {
    const res = await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key });
    if (res.status === 200 && done(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not settle`);
}

/** Keys, agents, a session, runs, a file, an unfinished tus upload and console users for the fuzz. */
export async function setupFixtures(): Promise<Fixtures> {
  const { orgA, orgB, supportA, baseUrl } = ctx();
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const valid = (await mintKey(orgA, ["agents:invoke"], "fuzz key")).key;
  const noInvoke = (await mintKey(orgA, [], "fuzz no invoke")).key;
  const revoked = await mintKey(orgA, ["agents:invoke"], "fuzz revoked");
  await revokeKey(orgA, revoked.key_id);
  const otherOrg = (await mintKey(orgB)).key;
  const conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  const workflow = (await createAgent(orgA, REVIEW_WORKFLOW)).agent_id;
  const otherConversational = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  const otherWorkflow = (await createAgent(orgB, SIMPLE_WORKFLOW)).agent_id;

  const chat = await call("POST", `/api/agents/webhook/${conversational}`, { auth: valid, body: { message: "hi" } });
  expect(chat.status, chat.text).toBe(200);
  const messages = await call("GET", `/api/agents/${conversational}/sessions/${chat.body.session_id}/messages`, {
    auth: valid,
  });
  const otherChat = await call("POST", `/api/agents/webhook/${otherConversational}`, {
    auth: otherOrg,
    body: { message: "hi" },
  });
  const done = await call("POST", `/api/agents/webhook/${workflow}`, { auth: valid, body: { rows: [{ a: 1 }] } });
  const review = await call("POST", `/api/agents/webhook/${workflow}`, {
    auth: valid,
    body: { rows: [{ review: true }, { review: true }] },
  });
  const otherRun = await call("POST", `/api/agents/webhook/${otherWorkflow}`, {
    auth: otherOrg,
    body: { rows: [{ a: 1 }] },
  });
  const finished = await waitForRun(valid, workflow, done.body.run_id, (r) => r.status === "completed");
  await waitForRun(valid, workflow, review.body.run_id, (r) => r.status === "needs_review");
  const approvals = await call("GET", `/api/agents/${workflow}/runs/${review.body.run_id}/approvals`, { auth: valid });
  const downloadUrl = new URL(finished.output_files[0].url);

  const form = new FormData();
  form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "fuzz.csv");
  const upload = await call("POST", `/api/agents/${conversational}/upload`, { auth: valid, raw: form });
  const tus = await fetch(`${baseUrl}/api/agents/${conversational}/upload/tus`, {
    method: "POST",
    headers: { authorization: `Bearer ${valid}`, "tus-resumable": "1.0.0", "upload-length": "1000" },
  });
  expect(tus.status).toBe(201);

  const victims = {
    agents: await Promise.all([1, 2, 3].map(async () => (await createAgent(orgA, ECHO_AGENT)).agent_id)),
    keys: await Promise.all([1, 2, 3].map(async () => (await mintKey(orgA, ["agents:invoke"], "victim")).key_id)),
    members: [] as string[],
    invitations: [] as string[],
  };
  // The fuzz's own console users (the suites' admin-a keeps its sessions and role).
  const adminA = await signIn("admin-a@example.com");
  const member = (email: string, role: string) => addMember(adminA, email, role, "fuzz-password-123");
  const adminEmail = `fuzz-admin-${stamp}@example.com`;
  const supportEmail = `fuzz-support-${stamp}@example.com`;
  await member(adminEmail, "admin");
  await member(supportEmail, "support");
  for (let i = 0; i < 3; i++) victims.members.push(await member(`fuzz-victim-${i}-${stamp}@example.com`, "support"));
  for (let i = 0; i < 3; i++)
    victims.invitations.push((await invite(adminA, `fuzz-invited-${i}-${stamp}@example.com`)).invitation_id);

  let admin: ConsoleSession;
  let support: ConsoleSession;
  const f: Fixtures = {
    base: baseUrl,
    host: new URL(baseUrl).host,
    orgA: orgA.organization_id,
    orgB: orgB.organization_id,
    tokens: { admin: orgA.user_token, support: supportA.user_token, orgB: orgB.user_token },
    keys: { valid, noInvoke, revoked: revoked.key, otherOrg },
    agents: { conversational, workflow, otherConversational, otherWorkflow },
    sessionId: chat.body.session_id,
    messageIds: messages.body.messages.map((m: { message_id: string }) => m.message_id),
    otherSessionId: otherChat.body.session_id,
    runIds: [done.body.run_id, review.body.run_id],
    otherRunId: otherRun.body.run_id,
    exceptionId: approvals.body[0]?.exception_id ?? approvals.body.approvals?.[0]?.exception_id,
    fileId: upload.body.file_id,
    uploadId: tus.headers.get("location")!.split("/").pop()!,
    downloadToken: downloadUrl.searchParams.get("token")!,
    victims,
    cookies: { admin: "", support: "" },
    async refreshSessions() {
      admin = await signIn(adminEmail, "fuzz-password-123");
      support = await signIn(supportEmail, "fuzz-password-123");
      f.cookies = { admin: admin.cookie, support: support.cookie };
    },
    console: {
      orgA: orgA.organization_id,
      orgB: orgB.organization_id,
      conversational,
      workflow,
      sessionId: chat.body.session_id,
      runId: done.body.run_id,
      supportUserId: victims.members[0]!,
      // No callback is configured here: the delivery routes answer 404 delivery_not_found.
      deliveryId: "dlv_fuzz",
      freshKey: async () => victims.keys[0]!,
      freshMember: async () => victims.members[0]!,
      freshInvitation: async () => victims.invitations[0]!,
      freshAgent: async () => victims.agents[0]!,
      freshSecret: async () => "fuzz-secret",
      // None started here: the bulk action route answers 404 bulk_action_not_found.
      bulkActionId: "bulk_fuzz",
      freshView: async () => "view_fuzz",
      freshFile: async () => upload.body.file_id,
      // None made here: the rule routes answer 404 alert_rule_not_found.
      freshRule: async () => "alr_fuzz",
      // The fuzz's victim agents: version routes answer their 409s (no draft, no rollout) or act on them.
      freshDraftAgent: async () => victims.agents[0]!,
      freshRolloutAgent: async () => victims.agents[0]!,
    },
  };
  await f.refreshSessions();
  expect(f.exceptionId).toMatch(/^exc_/);
  return f;
}

// ---- generators ----

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
const encodeLoose = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeBytes(s);
  }
};
/** A control character other than tab: a header line holding one is malformed. */
const hasControl = (s: string) => [...s].some((c) => (c < " " && c !== "\t") || c === "\x7f");
/** RFC 8187 ext-value (filename*): every byte that is not an attr-char percent-encoded. */
const encodeExtValue = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, "0").toUpperCase()}`,
    )
    .join("");
/** Bytes as a latin1 string: how http.request writes UTF-8 bytes of a path or header verbatim. */
const rawUtf8 = (s: string) => Buffer.from(s, "utf8").toString("latin1");
/** A header value of any bytes a client can put on the wire (no control characters but tab). */
const headerValue = (s: string) =>
  [...rawUtf8(s)].map((c) => (c === "\t" || (c >= " " && c !== "\x7f") ? c : "_")).join("");
/** Raw path bytes: anything but the characters that end or split a path, and controls. */
const pathBytes = (s: string) =>
  [...rawUtf8(s)].map((c) => (c > " " && c !== "\x7f" && !"/?#".includes(c) ? c : "_")).join("");

/** A fuzzed path segment, sent encoded, raw, or as one of the awkward forms. */
export const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fuzzString.map(encodeLoose) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "..",
      ".",
      "%2e%2e",
      "%",
      "%zz",
      "%00",
      "%2F",
      "%5C",
      "a%ffb",
      "%c0%ae",
      "%ed%a0%80",
      "%E2%80%AE",
      "~",
      "a;b=c",
      "@",
      ":",
      "x".repeat(3000),
      "x".repeat(20_000),
      "99999999999999999999999",
      "-1",
      "agt_",
      "run_",
      "sess_",
    ),
  },
  {
    weight: 1,
    arbitrary: fuzzString.filter((s) => s.length > 0).map(pathBytes),
  },
);

export interface Auth {
  label: string;
  headers: (f: Fixtures) => Record<string, string>;
}

const bearer = (token: (f: Fixtures) => string, label: string): Auth => ({
  label,
  headers: (f) => ({ authorization: `Bearer ${token(f)}` }),
});

const NO_AUTH: Auth = { label: "none", headers: () => ({}) };
const BROKEN_AUTH: Auth[] = [
  NO_AUTH,
  bearer(() => `ak_${"x".repeat(43)}`, "unknown key"),
  bearer(() => "", "empty bearer"),
  { label: "basic", headers: () => ({ authorization: "Basic dXNlcjpwYXNz" }) },
  { label: "bearer only", headers: () => ({ authorization: "Bearer" }) },
  { label: "unicode token", headers: () => ({ authorization: `Bearer ${rawUtf8("ak_💥")}` }) },
  { label: "long token", headers: () => ({ authorization: `Bearer ak_${"y".repeat(8000)}` }) },
];

function authArb(family: Family): fc.Arbitrary<Auth> {
  const broken = fc.constantFrom(...BROKEN_AUTH);
  switch (family) {
    case "access_key":
      return fc.oneof(
        { weight: 10, arbitrary: fc.constant(bearer((f) => f.keys.valid, "valid key")) },
        { weight: 2, arbitrary: broken },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            bearer((f) => f.keys.revoked, "revoked key"),
            bearer((f) => f.keys.otherOrg, "other organization's key"),
            bearer((f) => f.keys.noInvoke, "key without agents:invoke"),
            bearer((f) => f.tokens.admin, "user token"),
          ),
        },
      );
    case "user_token":
      return fc.oneof(
        { weight: 10, arbitrary: fc.constant(bearer((f) => f.tokens.admin, "admin token")) },
        { weight: 2, arbitrary: broken },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            bearer((f) => f.tokens.support, "support token"),
            bearer((f) => f.tokens.orgB, "other organization's token"),
            bearer((f) => f.keys.valid, "access key"),
          ),
        },
      );
    case "console":
      return fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constant<Auth>({ label: "admin session", headers: (f) => ({ cookie: f.cookies.admin }) }),
        },
        {
          weight: 3,
          arbitrary: fc.constant<Auth>({ label: "support session", headers: (f) => ({ cookie: f.cookies.support }) }),
        },
        { weight: 1, arbitrary: broken },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Auth>(
            { label: "garbage cookie", headers: () => ({ cookie: "authjs.session-token=garbage; awhs_org=org_x" }) },
            {
              label: "session and foreign org cookie",
              headers: (f) => ({ cookie: `${f.cookies.admin}; awhs_org=${f.orgB}` }),
            },
          ),
        },
      );
    case "auth_js":
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant(NO_AUTH) },
        {
          weight: 2,
          arbitrary: fc.constant<Auth>({ label: "admin session", headers: (f) => ({ cookie: f.cookies.admin }) }),
        },
        { weight: 1, arbitrary: broken },
        {
          weight: 2,
          arbitrary: fc.constantFrom<Auth>(
            { label: "bad callback-url cookie", headers: () => ({ cookie: "authjs.callback-url=1" }) },
            {
              label: "script callback-url cookie",
              headers: () => ({ cookie: "authjs.callback-url=javascript%3Aalert(1)" }),
            },
            { label: "garbage csrf cookie", headers: () => ({ cookie: "authjs.csrf-token=x%7Cy" }) },
            { label: "garbage session cookie", headers: () => ({ cookie: "authjs.session-token=garbage" }) },
          ),
        },
      );
    default:
      return fc.oneof({ weight: 6, arbitrary: fc.constant(NO_AUTH) }, { weight: 1, arbitrary: broken });
  }
}

const QUERY_KEYS = [
  "limit",
  "offset",
  "status",
  "since",
  "role",
  "triggered_by",
  "token",
  "agent_id",
  "include_archived",
  "kind",
  "cursor",
  "callbackUrl",
];

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fuzzString.map(encodeLoose) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "1",
      "0",
      "-1",
      "100",
      "101",
      "1.5",
      "1e3",
      "99999999999999999999999",
      "0x10",
      "%00",
      "%zz",
      "completed",
      "pending",
      "user",
      "assistant",
      "true",
      "2024-01-01",
      "2024-01-01T00:00:00Z",
      "",
    ),
  },
);

const queryArb: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, fuzzString.map(encodeLoose)),
      queryValue,
    ),
    {
      maxLength: 4,
    },
  )
  .chain((pairs) =>
    fc.constantFrom(
      pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : "",
      pairs.length
        ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}&${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`
        : "?",
    ),
  );

/** Extra headers a client might send, some of them hostile. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .subarray<[string, fc.Arbitrary<string>]>([
    ["prefer", fc.constantFrom("respond-async", "respond-async, wait=1", "wait=abc", rawUtf8("💥"), "return=minimal")],
    ["idempotency-key", fc.oneof(fuzzString.map(headerValue), fc.constant("k".repeat(300)))],
    [
      "range",
      fc.constantFrom(
        "bytes=0-0",
        "bytes=5-2",
        "bytes=-1",
        "bytes=99999999999999999999-",
        "items=0-1",
        "bytes=0-1,3-4",
      ),
    ],
    ["accept", fc.constantFrom("text/html", "application/xml", "*/*", "")],
    ["accept-encoding", fc.constantFrom("gzip", "br", "identity;q=0", "x")],
    ["user-agent", fuzzString.map(headerValue)],
    ["x-forwarded-host", fc.constantFrom("evil.example", "a b", "")],
    ["x-forwarded-proto", fc.constantFrom("https", "gopher")],
    ["x-request-id", fc.constantFrom("req_client", "")],
    ["if-none-match", fc.constantFrom("*", '"x"')],
  ])
  .chain((chosen) =>
    chosen.length
      ? fc
          .tuple(...chosen.map(([, a]) => a))
          .map((values) => Object.fromEntries(chosen.map(([n], i) => [n, values[i]!])))
      : fc.constant({}),
  );

const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json; charset=utf-16",
];
const OTHER_TYPES = ["text/plain", "multipart/form-data", "application/x-www-form-urlencoded", "", "application/jsonx"];

const contentTypeArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** A generated request against one route: printed by fast-check as a short description. */
export class FuzzRequest {
  constructor(
    readonly target: RouteTarget,
    readonly method: string,
    readonly path: string,
    readonly auth: Auth,
    readonly headers: Record<string, string>,
    readonly body: BodySpec,
    readonly chunked: boolean,
  ) {}

  sendable(f: Fixtures): Sendable {
    const body =
      this.body.kind === "json"
        ? Buffer.from(this.body.text, "utf8")
        : this.body.kind === "bytes"
          ? this.body.bytes
          : undefined;
    return {
      method: this.method,
      target: this.path,
      headers: { ...this.auth.headers(f), ...this.headers },
      body,
      chunked: this.chunked,
    };
  }

  [fc.toStringMethod](): string {
    const b =
      this.body.kind === "none"
        ? "no body"
        : `${this.body.kind === "json" ? this.body.text.length : this.body.bytes.length} bytes (${this.body.note ?? "json"}): ${(this
            .body.kind === "json"
            ? this.body.text
            : this.body.bytes.toString("latin1")
          ).slice(0, 200)}`;
    return `${this.method} ${this.path.slice(0, 300)} [${this.target.method} ${this.target.pattern}] auth=${this.auth.label} headers=${JSON.stringify(this.headers).slice(0, 300)} body=${b}${this.chunked ? " chunked" : ""}`;
  }
}

const METHOD_POOL = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"];
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function tusHeaders(): fc.Arbitrary<Record<string, string>> {
  const num = fc.constantFrom("0", "1", "10", "1000", "-1", "abc", "1e3", "99999999999999999999999", "");
  const metadata = fc.oneof(
    fc.constantFrom(
      "filename ZmlsZS50eHQ=,filetype dGV4dC9wbGFpbg==",
      "filename AA==",
      "filename 7aCA",
      "broken",
      "filename !!!",
      "",
    ),
    fc
      .array(fc.tuple(fuzzString, fuzzString), { maxLength: 3 })
      .map((pairs) =>
        pairs
          .map(([k, v]) => `${k.replace(/[^a-z]/gi, "") || "k"} ${Buffer.from(v, "utf8").toString("base64")}`)
          .join(","),
      ),
  );
  return fc.record(
    {
      "tus-resumable": fc.constantFrom("1.0.0", "1.0.0", "1.0.0", "0.2.2", ""),
      "upload-length": num,
      "upload-offset": num,
      "upload-metadata": metadata,
      "upload-defer-length": fc.constantFrom("1", "0"),
      "content-type": fc.constantFrom("application/offset+octet-stream", "text/plain"),
    },
    { requiredKeys: ["tus-resumable"] },
  );
}

/** Ids for each dynamic segment: ones that reach a real resource, and others (wrong kind or org, unknown). */
export function paramPools(t: RouteTarget, f: Fixtures): Record<string, { valid: string[]; other: string[] }> {
  // PATCH and DELETE on the management and console APIs change or remove what they name: victims only.
  const destructive = (t.method === "PATCH" || t.method === "DELETE") && t.family !== "access_key";
  const agents =
    t.agentKind === "workflow"
      ? [f.agents.workflow]
      : t.agentKind === "conversational"
        ? [f.agents.conversational]
        : [f.agents.conversational, f.agents.workflow];
  return {
    agent_id: {
      valid: destructive ? f.victims.agents : agents,
      other: [
        f.agents.conversational,
        f.agents.workflow,
        f.agents.otherConversational,
        f.agents.otherWorkflow,
        "agt_doesnotexist000000",
      ],
    },
    run_id: { valid: f.runIds, other: [f.otherRunId, "run_unknown"] },
    session_id: { valid: [f.sessionId], other: [f.otherSessionId, "sess_unknown"] },
    message_id: { valid: f.messageIds, other: ["msg_unknown"] },
    org_id: { valid: [f.orgA], other: [f.orgB, "org_unknown"] },
    key_id: { valid: f.victims.keys, other: ["key_unknown"] },
    user_id: { valid: f.victims.members, other: ["usr_unknown"] },
    // Organization secrets: one of org A's the fuzz may set and delete.
    name: { valid: ["fuzz-secret"], other: ["fuzz-unknown", "-bad-name"] },
    invitation_id: { valid: f.victims.invitations, other: ["inv_unknown"] },
    // The console's newer routes: a review item, a file (never deleted: the other suites read it),
    // and records the fuzz does not make (their routes answer 404 with their own code).
    exception_id: { valid: [f.exceptionId], other: ["exc_unknown"] },
    file_id: { valid: destructive ? ["fi_unknown"] : [f.fileId], other: ["fi_unknown"] },
    view_id: { valid: ["view_fuzz"], other: ["view_unknown"] },
    bulk_action_id: { valid: ["bulk_fuzz"], other: ["bulk_unknown"] },
    export_id: { valid: ["exp_fuzz"], other: ["exp_unknown"] },
    delivery_id: { valid: ["dlv_fuzz"], other: ["dlv_unknown"] },
    rule_id: { valid: ["alr_fuzz"], other: ["alr_unknown"] },
    // Agent versions: every agent has a version 1; the others are missing or malformed.
    version: { valid: ["1"], other: ["999", "0", "x"] },
  };
}

/** The route's path with a real resource in every dynamic segment. */
export function validPath(t: RouteTarget, f: Fixtures): string {
  const pools = paramPools(t, f);
  return t.pattern
    .replace(/\[+(\.\.\.)?([^\]]+)\]+/g, (_m, _dots, name: string) => pools[name]?.valid[0] ?? "")
    .replace(/\/$/, "");
}

/** Credentials that pass for the route's family (same-origin for the console). */
export function validAuth(family: Family, f: Fixtures): Record<string, string> {
  switch (family) {
    case "access_key":
      return { authorization: `Bearer ${f.keys.valid}` };
    case "user_token":
      return { authorization: `Bearer ${f.tokens.admin}` };
    case "console":
      return { cookie: f.cookies.admin, origin: f.base };
    default:
      return {};
  }
}

/** Every generated request for one route and method. */
export function requestArb(t: RouteTarget, f: Fixtures): fc.Arbitrary<FuzzRequest> {
  const pools = paramPools(t, f);
  const param = (p: string): fc.Arbitrary<string> => {
    const name = p.replace(/[[\].]/g, "");
    const pool = pools[name];
    if (pool) {
      return fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...pool.valid) },
        { weight: 2, arbitrary: fc.constantFrom(...pool.other) },
        { weight: 2, arbitrary: fuzzSegment },
      );
    }
    switch (name) {
      case "nextauth":
        return fc.oneof(
          fc.constantFrom(
            "session",
            "csrf",
            "providers",
            "signin",
            "signout",
            "callback/credentials",
            "error",
            "signin/credentials",
            "callback/oidc",
            "verify-request",
            "webauthn-options/x",
          ),
          fc.array(fuzzSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/")),
        );
      case "path":
        if (p.startsWith("[[")) {
          return fc.oneof(
            { weight: 2, arbitrary: fc.constant("") },
            { weight: 4, arbitrary: fc.constant(f.uploadId) },
            { weight: 2, arbitrary: fuzzSegment },
            { weight: 1, arbitrary: fc.tuple(fc.constant(f.uploadId), fuzzSegment).map(([a, b]) => `${a}/${b}`) },
          );
        }
        return fc.array(fuzzSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
      default:
        return fuzzSegment;
    }
  };
  const pathArb = fc.tuple(...t.params.map(param)).map((values) => {
    let i = 0;
    const filled = t.pattern.replace(/\[+(\.\.\.)?([^\]]+)\]+/g, () => values[i++] ?? "");
    return filled.replace(/\/$/, "");
  });
  const isTus = t.pattern.includes("/upload/tus/");
  const isUpload = t.pattern.endsWith("/upload");
  const write = BODY_METHODS.has(t.method);
  const methodArb = fc.oneof(
    { weight: 30, arbitrary: fc.constant(t.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHOD_POOL) },
  );
  const origin = fc.oneof(
    { weight: 10, arbitrary: fc.constant<Record<string, string>>({ origin: f.base }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>({}, { origin: "https://evil.example" }, { origin: "null" }),
    },
  );
  const bodyAndType: fc.Arbitrary<{ body: BodySpec; type?: string; extra?: Record<string, string> }> = isTus
    ? fc.tuple(tusHeaders(), fc.uint8Array({ maxLength: 64 })).map(([h, bytes]) => ({
        body:
          write && bytes.length ? { kind: "bytes", bytes: Buffer.from(bytes), note: "tus bytes" } : { kind: "none" },
        extra: h,
      }))
    : isUpload
      ? multipartArb.map((m) => ({
          body: { kind: "bytes" as const, bytes: m.bytes, note: m.note },
          type: m.contentType,
        }))
      : write
        ? fc.tuple(bodyArb(t, f), contentTypeArb).map(([body, type]) => ({ body, type }))
        : fc.oneof(
            { weight: 8, arbitrary: fc.constant({ body: { kind: "none" } as BodySpec }) },
            { weight: 1, arbitrary: fc.tuple(bodyArb(t, f), contentTypeArb).map(([body, type]) => ({ body, type })) },
          );
  return fc
    .record({
      method: methodArb,
      path: pathArb,
      query: fc.oneof({ weight: 2, arbitrary: fc.constant("") }, { weight: 3, arbitrary: queryArb }),
      auth: authArb(t.family),
      origin: t.family === "console" || t.family === "auth_js" || isTus ? origin : fc.constant({}),
      extra: extraHeaders,
      body: bodyAndType,
      chunked: fc.boolean(),
      host: fc.oneof(
        { weight: 30, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("evil.example", "a:b:c", "[::1", "") },
      ),
    })
    .map((r) => {
      const headers: Record<string, string> = { ...r.origin, ...r.extra, ...r.body.extra };
      if (r.body.type !== undefined) headers["content-type"] = r.body.type;
      if (r.host !== undefined) headers.host = r.host;
      const body = r.body.body;
      return new FuzzRequest(
        t,
        r.method,
        `${r.path}${r.query}`,
        r.auth,
        headers,
        body,
        r.chunked && body.kind !== "none",
      );
    });
}

// ---- multipart ----

export interface Multipart {
  contentType: string;
  bytes: Buffer;
  note: string;
  /**
   * The answer the form must get: its file stored (200), 415 (not multipart with a boundary), 400
   * (truncated, malformed, no or two file parts, an empty file, a NUL in the filename), or either of
   * 200/400/415 where the parser's leniency decides (a boundary byte the header cannot carry, a cut
   * that only drops the last CRLF).
   */
  expect: "stored" | "400" | "415" | "either";
  /** Bytes of the file part, when stored. */
  fileBytes: number;
}

const CRLF = "\r\n";

/** Multipart bodies for the upload route: well-formed, and broken in every way a client can. */
export const multipartArb: fc.Arbitrary<Multipart> = fc
  .record({
    boundary: fc.constantFrom("----fuzzBoundary7MA4YWxk", "x", "a".repeat(70), "bound ary", "ÿ", "--"),
    partName: fc.constantFrom("file", "file", "file", "files", "", "FILE"),
    filename: fc.oneof(
      fc.constantFrom(
        "data.csv",
        "",
        "../../etc/passwd",
        "a\u0000b.csv",
        "\u202etxt.exe",
        "💥.csv",
        "x".repeat(400),
        'q"uote.csv',
        "C:\\x\\y.csv",
      ),
      fuzzString,
    ),
    filenameStar: fc.boolean(),
    fileType: fc.constantFrom("text/csv", "", "application/octet-stream", "text/plain; charset=utf-8", "💥/x"),
    content: fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      fc.constant(Buffer.from("a,b\n1,2\n")),
    ),
    extraParts: fc.array(
      fc.record({
        name: fc.constantFrom("file", "other", "meta"),
        file: fc.boolean(),
        content: fc.string({ maxLength: 50 }),
      }),
      { maxLength: 3 },
    ),
    manyParts: fc.constantFrom(0, 0, 0, 70),
    bigField: fc.constantFrom(0, 0, 0, 100 * 1024),
    breakage: fc.constantFrom(
      "none",
      "none",
      "none",
      "truncate",
      "no closing boundary",
      "other boundary",
      "no boundary param",
      "not multipart",
      "LF line endings",
      "no part headers",
      "garbage preamble",
      "no disposition",
    ),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((m): Multipart => {
    const disposition = m.filenameStar
      ? `form-data; name="${m.partName}"; filename*=UTF-8''${encodeExtValue(m.filename)}`
      : `form-data; name="${m.partName}"; filename="${rawUtf8(m.filename).replace(/[\r\n"]/g, "_")}"`;
    const head = (h: string[]) => h.join(CRLF) + CRLF + CRLF;
    const parts: Buffer[] = [];
    const b = m.boundary;
    const push = (headers: string[], content: Buffer) =>
      parts.push(Buffer.concat([Buffer.from(`--${b}${CRLF}${head(headers)}`, "latin1"), content, Buffer.from(CRLF)]));
    const fileHeaders =
      m.breakage === "no disposition"
        ? [`Content-Type: ${m.fileType}`]
        : [`Content-Disposition: ${disposition}`, ...(m.fileType ? [`Content-Type: ${rawUtf8(m.fileType)}`] : [])];
    if (m.breakage === "no part headers")
      parts.push(Buffer.from(`--${b}${CRLF}${CRLF}`, "latin1"), m.content, Buffer.from(CRLF));
    else push(fileHeaders, m.content);
    for (const p of m.extraParts) {
      push(
        [`Content-Disposition: form-data; name="${p.name}"${p.file ? '; filename="x.txt"' : ""}`],
        Buffer.from(p.content, "utf8"),
      );
    }
    for (let i = 0; i < m.manyParts; i++) push([`Content-Disposition: form-data; name="f${i}"`], Buffer.from("v"));
    if (m.bigField) push(['Content-Disposition: form-data; name="big"'], Buffer.alloc(m.bigField, 0x61));
    let bytes = Buffer.concat([
      ...parts,
      Buffer.from(m.breakage === "no closing boundary" ? "" : `--${b}--${CRLF}`, "latin1"),
    ]);
    if (m.breakage === "garbage preamble")
      bytes = Buffer.concat([Buffer.from("garbage\x00\xff preamble\r\n", "latin1"), bytes]);
    if (m.breakage === "LF line endings")
      bytes = Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
    const full = bytes.length;
    if (m.breakage === "truncate") bytes = bytes.subarray(0, Math.floor(bytes.length * m.cut));
    const quoted = /[^A-Za-z0-9'()+_,\-./:=?]/.test(b) ? `"${b}"` : b;
    const contentType =
      m.breakage === "other boundary"
        ? "multipart/form-data; boundary=somethingElse"
        : m.breakage === "no boundary param"
          ? "multipart/form-data"
          : m.breakage === "not multipart"
            ? "application/octet-stream"
            : `multipart/form-data; boundary=${rawUtf8(quoted)}`;
    // busboy ignores a part whose filename* is empty, and takes an empty filename="" for a field
    // (a browser's empty file input); a part with no headers at all makes the form malformed.
    const mainIsFile = m.breakage !== "no disposition" && m.filename !== "";
    const fileParts = [
      ...(mainIsFile ? [{ name: m.partName, bytes: m.content.length, filename: m.filename }] : []),
      ...m.extraParts
        .filter((p) => p.file)
        .map((p) => ({ name: p.name, bytes: Buffer.byteLength(p.content), filename: "x.txt" })),
    ];
    const only = fileParts.length === 1 ? fileParts[0]! : undefined;
    const wellFormed = ["none", "garbage preamble", "no disposition"].includes(m.breakage);
    let expect: Multipart["expect"];
    if (m.breakage === "not multipart" || m.breakage === "no boundary param") expect = "415";
    else if (m.boundary === "ÿ") expect = "either";
    else if (m.breakage === "truncate" && bytes.length >= full - 2) expect = "either";
    else if (!wellFormed || (mainIsFile && hasControl(disposition)))
      expect = "400"; // busboy: malformed header
    else if (only?.name === "file" && only.bytes > 0 && only.filename !== "" && !only.filename.includes("\u0000"))
      expect = "stored";
    else expect = "400";
    return {
      contentType,
      bytes,
      expect,
      fileBytes: only?.bytes ?? 0,
      note: `multipart: boundary ${JSON.stringify(b)}, part ${JSON.stringify(m.partName)}, filename ${JSON.stringify(m.filename).slice(0, 60)}${m.filenameStar ? "*" : ""}, ${m.content.length} bytes, ${m.extraParts.length} extra, ${m.manyParts} many, big field ${m.bigField}, ${m.breakage}${m.breakage === "truncate" ? ` at ${bytes.length}` : ""}`,
    };
  });

// ---- invariants ----

/** Where the shared server's log stands now (bytes), to look only at what a suite adds to it. */
export const logMark = (): number => statSync(ctx().logFile).size;

/**
 * The server's log since `mark` holds no uncaught exception or unhandled rejection: an error no
 * handler answered is a defect even when the client got an answer (and it may have got none).
 */
export function expectNoUncaught(mark: number) {
  const added = readFileSync(ctx().logFile).subarray(mark).toString("utf8");
  const lines = added.split("\n").filter((l) => /uncaughtException|unhandledRejection/i.test(l));
  expect(lines, `uncaught errors in the server log (${ctx().logFile})`).toEqual([]);
}

const SNAKE = /^[a-z][a-z0-9_]*$/;

/** What every answer must be; `allow` names 5xx answers the API allows for this request. */
export function checkAnswer(
  req: { method: string; target: string; family?: Family; pattern?: string },
  res: Answer,
  opts: { allow5xx?: (res: Answer, body: any) => boolean } = {},
) {
  const where = `${req.method} ${req.target.slice(0, 200)} -> ${res.status} ${res.headers["content-type"] ?? ""} ${res.text.slice(0, 300)}`;
  let body: any;
  try {
    body = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status >= 500) {
    if (!opts.allow5xx?.(res, body)) throw new Error(`5xx: ${where}`);
  }
  if (res.status < 400) return;
  // Dot segments can lead a path out of /api/ (`/api/../x`): the pages answer there, not the API.
  const pathname = new URL(req.target, "http://x").pathname;
  if (pathname !== "/api" && !pathname.startsWith("/api/")) return;
  // Auth.js answers its own endpoints (redirects, its JSON); they are no part of the API's contract.
  if (req.family === "auth_js" && !res.headers["x-request-id"]) return;
  const requestId = res.headers["x-request-id"];
  if (typeof requestId !== "string" || !requestId.startsWith("req_")) throw new Error(`no X-Request-Id: ${where}`);
  if (req.method === "HEAD") return; // no body on HEAD
  // The tus protocol's own refusals carry a short text/plain body, as tus servers do (docs/api.md).
  if (res.headers["tus-resumable"] && !String(res.headers["content-type"] ?? "").includes("json")) return;
  const e = body?.error;
  if (!e || typeof e !== "object") throw new Error(`no error envelope: ${where}`);
  if (typeof e.code !== "string" || !SNAKE.test(e.code)) throw new Error(`error.code not a snake_case code: ${where}`);
  if (!(e.code in ERROR_STATUS)) throw new Error(`error.code ${e.code} is not in lib/errors.ts: ${where}`);
  if ((ERROR_STATUS as Record<string, number>)[e.code] !== res.status)
    throw new Error(`error.code ${e.code} does not match the status: ${where}`);
  if (typeof e.message !== "string" || !e.message) throw new Error(`error.message empty: ${where}`);
  if (e.request_id !== requestId) throw new Error(`error.request_id is not X-Request-Id: ${where}`);
  if (e.details !== undefined && (typeof e.details !== "object" || e.details === null))
    throw new Error(`error.details not an object: ${where}`);
}
