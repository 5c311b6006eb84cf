// Helpers for API tests: HTTP calls, fixtures made through the management API, and the common
// auth matrix that every Access Key route joins.
import { expect, inject } from "vitest";
import { checkAnswer } from "./answers";

export const ctx = () => inject("api");

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(
  method: string,
  path: string,
  opts: { auth?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string>; base?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth.includes(" ") ? opts.auth : `Bearer ${opts.auth}`;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const url = `${opts.base ?? ctx().baseUrl}${path}`;
  const res = await fetch(url, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const answer = { status: res.status, headers: res.headers, body: parsed as T, text };
  // Every answer a test receives is its contract's (./answers.ts).
  checkAnswer(method, url, answer);
  return answer;
}

/** Asserts the error envelope (docs/api.md, Errors) and the X-Request-Id header. */
export function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.body.error.request_id).toMatch(/^req_/);
  expect(res.headers.get("x-request-id")).toBe(res.body.error.request_id);
}

type Org = { organization_id: string; user_token: string };

/**
 * Every row of a management list (`key`: `agents`, `access_keys`, `secrets`), following each page's
 * `next_cursor` (docs/api.md, Paging): the suites share one organization, which holds more than a page.
 * `text` is every page's body, for assertions on what an answer must never contain.
 */
export async function listAll<T = any>(path: string, key: string, auth: string): Promise<{ rows: T[]; text: string }> {
  const rows: T[] = [];
  let text = "";
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const res: ApiResponse = await call("GET", cursor ? `${path}${sep}cursor=${cursor}` : path, { auth });
    expect(res.status, res.text).toBe(200);
    rows.push(...(res.body[key] as T[]));
    text += res.text;
    cursor = res.body.next_cursor;
  } while (cursor);
  return { rows, text };
}

export async function mintKey(org: Org, permissions: string[] = ["agents:invoke"], name = "test key") {
  const res = await call("POST", `/api/v1/organizations/${org.organization_id}/access-keys`, {
    auth: org.user_token,
    body: { name, permissions },
  });
  expect(res.status).toBe(201);
  return res.body as { key_id: string; key: string };
}

export async function revokeKey(org: Org, keyId: string) {
  const res = await call("DELETE", `/api/v1/organizations/${org.organization_id}/access-keys/${keyId}`, {
    auth: org.user_token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

export const ECHO_AGENT = { name: "echo", kind: "conversational", runtime: { type: "echo" } };
export const SIMPLE_WORKFLOW = {
  name: "wf",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "t", type: "transform", expression: "item" }],
  },
};

export async function createAgent(org: Org, spec: unknown = ECHO_AGENT) {
  const res = await call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
    auth: org.user_token,
    body: spec,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { agent_id: string; kind: string; project_id: string; organization_id: string };
}

export interface RouteUnderTest {
  name: string;
  method: string;
  /** Path for an agent of org A (made by the matrix); other ids in it may be bogus. */
  path: (agentId: string) => string;
  body?: unknown;
  /** A non-JSON body (e.g. multipart FormData), made fresh for each call. */
  raw?: () => BodyInit;
  /** Agent kind the route needs (defaults to conversational). */
  kind?: "conversational" | "workflow";
}

/**
 * The common auth matrix (docs/api.md, Authentication): no key, wrong scheme, malformed, unknown, revoked -> 401;
 * another organization's key -> 404 as for a missing agent; no agents:invoke -> 403.
 */
type MatrixCase = readonly [
  string,
  (s: MatrixSetup) => Promise<{ auth?: string; agentId?: string; expect: readonly [number, string] }>,
];

export function authMatrixCases(): MatrixCase[] {
  return [
    ["no Authorization header", async () => ({ auth: undefined, expect: [401, "unauthorized"] as const })],
    [
      "wrong scheme",
      async (s: MatrixSetup) => ({
        auth: `Basic ${Buffer.from(`x:${s.key}`).toString("base64")}`,
        expect: [401, "unauthorized"] as const,
      }),
    ],
    ["malformed key", async () => ({ auth: "Bearer not-a-key", expect: [401, "unauthorized"] as const })],
    ["unknown key", async () => ({ auth: `Bearer ak_${"x".repeat(43)}`, expect: [401, "unauthorized"] as const })],
    [
      "revoked key",
      async (s: MatrixSetup) => ({ auth: `Bearer ${s.revokedKey}`, expect: [401, "unauthorized"] as const }),
    ],
    [
      "key of another organization",
      async (s: MatrixSetup) => ({ auth: `Bearer ${s.otherOrgKey}`, expect: [404, "agent_not_found"] as const }),
    ],
    [
      "key without agents:invoke",
      async (s: MatrixSetup) => ({ auth: `Bearer ${s.noInvokeKey}`, expect: [403, "forbidden"] as const }),
    ],
    [
      "unknown agent",
      async (s: MatrixSetup) => ({
        auth: `Bearer ${s.key}`,
        agentId: "agt_doesnotexist000000",
        expect: [404, "agent_not_found"] as const,
      }),
    ],
  ];
}

export interface MatrixSetup {
  key: string;
  revokedKey: string;
  otherOrgKey: string;
  noInvokeKey: string;
  agents: { conversational: string; workflow: string };
}

let setupPromise: Promise<MatrixSetup> | undefined;

/** Keys and agents for the auth matrix, made once per test file. */
export function matrixSetup(): Promise<MatrixSetup> {
  setupPromise ??= (async () => {
    const { orgA, orgB } = ctx();
    const key = (await mintKey(orgA)).key;
    const revoked = await mintKey(orgA);
    await revokeKey(orgA, revoked.key_id);
    const otherOrgKey = (await mintKey(orgB)).key;
    const noInvokeKey = (await mintKey(orgA, [])).key;
    const conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    const workflow = (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id;
    return { key, revokedKey: revoked.key, otherOrgKey, noInvokeKey, agents: { conversational, workflow } };
  })();
  return setupPromise;
}

export async function runAuthMatrixCase(
  route: RouteUnderTest,
  make: (s: MatrixSetup) => Promise<{ auth?: string; agentId?: string; expect: readonly [number, string] }>,
) {
  const s = await matrixSetup();
  const c = await make(s);
  const agentId = c.agentId ?? s.agents[route.kind ?? "conversational"];
  const res = await call(route.method, route.path(agentId), {
    auth: c.auth,
    body: route.body,
    raw: route.raw?.(),
    headers: c.auth ? undefined : {},
  });
  expectError(res, c.expect[0], c.expect[1]);
}
