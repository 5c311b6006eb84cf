// fast-check generators of whole requests: path segments, auth (valid, broken, another family's),
// query strings, headers, content types and tus headers, on a route's valid path and parameters.
import fc from "fast-check";
import type { Sendable } from "./http";
import { multipartArb } from "./multipart";
import type { Family, Fixtures, RouteTarget } from "./targets";
import { bodyArb, type BodySpec, encodeLoose, fuzzString, headerValue, pathBytes, rawUtf8 } from "./values";

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
    evaluation_id: { valid: ["eval_fuzz"], other: ["eval_unknown"] },
    case_id: { valid: ["evc_fuzz"], other: ["evc_unknown"] },
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
