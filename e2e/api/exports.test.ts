// Exports (docs/api.md, Exports): each kind in both formats round-trips to the records the API
// answers, redaction is applied and recorded, filters hold, another organization's records never
// appear, links expire and refuse forgery, support cannot export the audit log, and the management
// API serves scripts the same.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { signExportToken } from "../../lib/exports/links";
import { orgPath, signIn, type ConsoleSession } from "./console";
import { dbEnv } from "./server";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey, SIMPLE_WORKFLOW, type ApiResponse } from "./helpers";

const SAVED = { ...process.env };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

type Rec = Record<string, any>;

let admin: ConsoleSession;
let support: ConsoleSession;
const user = `user-${unique()}`;
const otherUser = `other-${unique()}`;
let chat: string;
let flow: string;
let keyA: string;
const sessions: string[] = [];
const runs: string[] = [];
let orgBSession: string;

/** A message with an email, a phone number and a card number, and metadata with a named field. */
const SENSITIVE = "mail jane.doe@example.com, call +1 415 555 0123, pay 4111 1111 1111 1111";
// Internationalised: an RFC 6531 address, the 00 prefix, a card in full-width digits and dots.
const INTL = "josé@exämple.de, 0044 20 7946 0958, ４１１１．１１１１．１１１１．１１１１";

/** The exports of organization A on the organization API, which the console's session calls too. */
const exportsOf = (orgId = ctx().orgA.organization_id) => `/api/v1/organizations/${orgId}/exports`;

async function exportDone(session: ConsoleSession, body: unknown): Promise<Rec> {
  const created = await session.call("POST", exportsOf(), body);
  expect(created.status, created.text).toBe(201);
  return waitFor(session, created.body.export_id);
}

async function waitFor(session: ConsoleSession, id: string): Promise<Rec> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await session.call("GET", `${exportsOf()}/${id}`);
    expect(res.status, res.text).toBe(200);
    if (res.body.status === "succeeded" || res.body.status === "failed") return res.body;
    if (Date.now() > deadline) throw new Error(`export stayed ${res.body.status}`);
    await sleep(100);
  }
}

/** The export's file (following S3's presigned redirect). */
async function fileOf(session: ConsoleSession, record: Rec): Promise<ApiResponse> {
  const url = new URL(record.download_url);
  const res = await session.call("GET", `${url.pathname}${url.search}`);
  if (res.status === 302) {
    const bytes = await fetch(res.headers.get("location")!);
    return { status: bytes.status, headers: bytes.headers, body: undefined, text: await bytes.text() };
  }
  return res;
}

/** The rows of a file: CSV cells as strings (JSON columns parsed back), or JSON lines. */
function rowsOf(format: string, text: string): Rec[] {
  if (format === "jsonl")
    return text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Rec);
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  return rows.map((r) => {
    const out: Rec = {};
    for (const [k, v] of Object.entries(r)) {
      if (v === "") continue;
      const cell = v.startsWith("'") ? v.slice(1) : v;
      out[k] = /^[[{]/.test(cell) ? JSON.parse(cell) : cell;
    }
    return out;
  });
}

async function rowsOfExport(body: Rec, session = admin) {
  const record = await exportDone(session, body);
  expect(record.status, JSON.stringify(record)).toBe("succeeded");
  const file = await fileOf(session, record);
  expect(file.status).toBe(200);
  return { record, rows: rowsOf(body.format, file.text), file };
}

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  admin = await signIn("admin-a@example.com");
  support = await signIn("support-a@example.com");
  chat = (await createAgent(orgA, { ...ECHO_AGENT, name: `export chat ${unique()}` })).agent_id;
  flow = (await createAgent(orgA, { ...SIMPLE_WORKFLOW, name: `export flow ${unique()}` })).agent_id;
  keyA = (await mintKey(orgA)).key;
  for (const [who, text] of [
    [user, SENSITIVE],
    [user, "second session"],
    [otherUser, "not this user"],
  ] as const) {
    const res = await call("POST", `/api/agents/webhook/${chat}`, {
      auth: keyA,
      body: {
        message: text,
        user_id: who,
        metadata: { ssn: "078-05-1120", nested: { SSN: "x" }, note: "contact ops@example.org", intl: INTL },
        callback_url: "https://callbacks.invalid/hook",
      },
    });
    expect(res.status, res.text).toBe(200);
    sessions.push(res.body.session_id);
  }
  for (let i = 0; i < 2; i++) {
    const res = await call("POST", `/api/agents/webhook/${flow}`, {
      auth: keyA,
      body: { rows: [{ email: "row@example.com", secret: "s3cr3t" }, { n: 2 }] },
    });
    expect(res.status, res.text).toBeLessThan(300);
    runs.push(res.body.run_id);
  }
  // Org B: a session of the same end-user id, which org A's exports must never show.
  const keyB = (await mintKey(orgB)).key;
  const chatB = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  const b = await call("POST", `/api/agents/webhook/${chatB}`, {
    auth: keyB,
    body: { message: "ORG-B-ONLY", user_id: user },
  });
  orgBSession = b.body.session_id;
  // Runs settle before the exports read them.
  for (const id of runs) {
    for (let i = 0; i < 200; i++) {
      const r = await call("GET", `/api/agents/${flow}/runs/${id}`, { auth: keyA });
      if (r.body.status === "completed") break;
      await sleep(50);
    }
  }
  Object.assign(process.env, dbEnv(ctx().target));
  resetEnvCache();
});

afterAll(() => {
  process.env = { ...SAVED };
  resetEnvCache();
});

describe("each kind in both formats round-trips", () => {
  it.each(["csv", "jsonl"])("sessions with their messages (%s)", async (format) => {
    const { rows, file, record } = await rowsOfExport({ kind: "sessions", format, filters: { agent_id: chat } });
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="sessions-${record.export_id}.${format}"; filename*=UTF-8''sessions-${record.export_id}.${format}`,
    );
    const list = await admin.call("GET", orgPath(`/sessions?agent_id=${chat}&limit=100`));
    const sessionRows = rows.filter((r) => r.type === "session");
    expect(sessionRows.map((r) => r.session_id)).toEqual(list.body.sessions.map((s: Rec) => s.session_id));
    for (const s of sessionRows) {
      const msgs = await call("GET", `/api/agents/${chat}/sessions/${s.session_id}/messages?limit=100`, { auth: keyA });
      const exported = rows.filter((r) => r.type === "message" && r.session_id === s.session_id);
      const api = [...msgs.body.messages].sort((a: Rec, b: Rec) => a.created_at.localeCompare(b.created_at));
      expect(exported.map((m) => [m.message_id, m.role, m.content])).toEqual(
        api.map((m: Rec) => [m.message_id, m.role, m.content]),
      );
    }
    expect(rows.find((r) => r.session_id === sessions[0] && r.type === "session")?.metadata).toEqual({
      ssn: "078-05-1120",
      nested: { SSN: "x" },
      note: "contact ops@example.org",
      intl: INTL,
    });
    expect(record.rows_written).toBe(rows.length);
    expect(record.rows_estimated).toBe(rows.length);
  });

  it.each(["csv", "jsonl"])("runs with their items (%s)", async (format) => {
    const { rows } = await rowsOfExport({ kind: "runs", format, filters: { agent_id: flow } });
    const runRows = rows.filter((r) => r.type === "run");
    expect(runRows.map((r) => r.run_id).sort()).toEqual([...runs].sort());
    for (const id of runs) {
      const items = await admin.call("GET", orgPath(`/runs/${id}/items?limit=200`));
      const exported = rows.filter((r) => r.type === "run_item" && r.run_id === id);
      expect(exported.map((i) => [i.item_id, String(i.index), i.data])).toEqual(
        items.body.items.map((i: Rec) => [i.item_id ?? i.id, String(i.index), i.data]),
      );
    }
  });

  it.each(["csv", "jsonl"])("deliveries (%s)", async (format) => {
    const { rows } = await rowsOfExport({ kind: "deliveries", format, filters: { agent_id: chat } });
    const list = await admin.call("GET", orgPath(`/deliveries?agent_id=${chat}&limit=100`));
    expect(rows.map((r) => r.delivery_id)).toEqual(list.body.deliveries.map((d: Rec) => d.id));
    expect(rows.every((r) => r.url === "https://callbacks.invalid/hook")).toBe(true);
  });

  it.each(["csv", "jsonl"])("the audit log (%s)", async (format) => {
    const { rows } = await rowsOfExport({ kind: "audit", format, filters: { action: "export.*" } });
    const list = await admin.call("GET", orgPath("/audit?action=export.*&limit=100"));
    // The export's own request is logged before its job runs: the file holds it too.
    expect(rows.map((r) => r.event_id)).toEqual(list.body.events.slice(-rows.length).map((e: Rec) => e.event_id));
    expect(rows.every((r) => r.action.startsWith("export."))).toBe(true);
  });

  it.each(["csv", "jsonl"])("one end user's timeline, in time order (%s)", async (format) => {
    const { rows } = await rowsOfExport({ kind: "user_timeline", format, filters: { user_id: user } });
    const ids = new Set(rows.map((r) => r.session_id ?? r.run_id));
    expect(rows.filter((r) => r.type === "session").map((r) => r.session_id)).toEqual([sessions[0], sessions[1]]);
    expect(ids.has(sessions[2])).toBe(false);
    const messages = rows.filter((r) => r.type === "message");
    expect(messages.length).toBe(4);
    const deliveries = rows.filter((r) => r.type === "delivery");
    expect(deliveries.length).toBe(2);
    expect(new Set(deliveries.map((d) => d.subject_id))).toEqual(
      new Set(messages.filter((m) => m.role === "assistant").map((m) => m.message_id)),
    );
    const times = rows.map((r) => r.created_at as string);
    expect(times).toEqual([...times].sort());
  });
});

describe("redaction", () => {
  it("replaces emails, phones, cards and named fields, and records the rules", async () => {
    const redact = { emails: true, phones: true, cards: true, fields: ["ssn"] };
    const { rows, record } = await rowsOfExport({
      kind: "sessions",
      format: "jsonl",
      filters: { agent_id: chat },
      redact,
    });
    expect(record.rules_applied).toEqual(["emails", "phones", "cards", "field:ssn"]);
    const text = JSON.stringify(rows);
    for (const raw of [
      "jane.doe@example.com",
      "ops@example.org",
      "415 555 0123",
      "4111 1111 1111 1111",
      "078-05-1120",
    ]) {
      expect(text).not.toContain(raw);
    }
    const first = rows.find((r) => r.type === "message" && r.role === "user" && r.session_id === sessions[0])!;
    expect(first.content).toBe("mail [redacted:email], call [redacted:phone], pay [redacted:card]");
    const session = rows.find((r) => r.type === "session" && r.session_id === sessions[0])!;
    expect(session.metadata).toEqual({
      ssn: "[redacted:field]",
      nested: { SSN: "[redacted:field]" },
      note: "contact [redacted:email]",
      intl: "[redacted:email], [redacted:phone], [redacted:card]",
    });
    // Ids and timestamps are untouched.
    expect(session.session_id).toBe(sessions[0]);
    expect(Number.isNaN(Date.parse(session.created_at))).toBe(false);
  });

  it("applies to run inputs and item data by field name", async () => {
    const { rows, record } = await rowsOfExport({
      kind: "runs",
      format: "csv",
      filters: { agent_id: flow },
      redact: { emails: true, fields: ["secret"] },
    });
    expect(record.rules_applied).toEqual(["emails", "field:secret"]);
    const item = rows.find((r) => r.type === "run_item" && r.index === "0")!;
    expect(item.data).toEqual({ email: "[redacted:email]", secret: "[redacted:field]" });
  });
});

describe("filters", () => {
  it("status and end user narrow the records", async () => {
    const none = await rowsOfExport({ kind: "runs", format: "jsonl", filters: { agent_id: flow, status: "failed" } });
    expect(none.rows).toEqual([]);
    const mine = await rowsOfExport({
      kind: "sessions",
      format: "jsonl",
      filters: { agent_id: chat, user_id: otherUser },
    });
    expect(mine.rows.filter((r) => r.type === "session").map((r) => r.session_id)).toEqual([sessions[2]]);
    const later = await rowsOfExport({
      kind: "sessions",
      format: "jsonl",
      filters: { agent_id: chat, from: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(later.rows).toEqual([]);
  });

  it("refuses a timeline without a user, an unknown run status and an unknown kind", async () => {
    expectError(await admin.call("POST", exportsOf(), { kind: "user_timeline" }), 400, "invalid_request");
    expectError(
      await admin.call("POST", exportsOf(), { kind: "runs", filters: { status: "nope" } }),
      400,
      "invalid_request",
    );
    expectError(await admin.call("POST", exportsOf(), { kind: "secrets" }), 400, "invalid_request");
    expectError(
      await admin.call("POST", exportsOf(), { kind: "runs", redact: { fields: ["x".repeat(101)] } }),
      400,
      "invalid_request",
    );
  });
});

describe("organizations and roles", () => {
  it("another organization's records never appear, even for the same end-user id", async () => {
    for (const kind of ["user_timeline", "sessions"]) {
      const { rows } = await rowsOfExport({ kind, format: "jsonl", filters: { user_id: user } });
      const text = JSON.stringify(rows);
      expect(text).not.toContain("ORG-B-ONLY");
      expect(text).not.toContain(orgBSession);
    }
  });

  it("another organization cannot read or download an export", async () => {
    const record = await exportDone(admin, { kind: "sessions", format: "csv", filters: { agent_id: chat } });
    const adminB = await signIn("admin-b@example.com");
    const ofB = exportsOf(ctx().orgB.organization_id);
    expectError(await adminB.call("GET", `${ofB}/${record.export_id}`), 404, "export_not_found");
    expectError(await adminB.call("GET", `${exportsOf()}/${record.export_id}`), 404, "organization_not_found");
    const url = new URL(record.download_url);
    expectError(await adminB.call("GET", `${url.pathname}${url.search}`), 404, "organization_not_found");
    expectError(await adminB.call("GET", `${ofB}/${record.export_id}/download${url.search}`), 404, "export_not_found");
    const list = await adminB.call("GET", ofB);
    expect(list.text).not.toContain(record.export_id);
  });

  it("support exports sessions but not the audit log", async () => {
    const ok = await support.call("POST", exportsOf(), { kind: "sessions" });
    expect(ok.status).toBe(201);
    expectError(await support.call("POST", exportsOf(), { kind: "audit" }), 403, "forbidden");
    expectError(
      await call("POST", `/api/v1/organizations/${ctx().orgA.organization_id}/exports`, {
        auth: ctx().supportA.user_token,
        body: { kind: "audit" },
      }),
      403,
      "forbidden",
    );
    const audits = await admin.call("POST", exportsOf(), { kind: "audit" });
    expectError(await support.call("GET", `${exportsOf()}/${audits.body.export_id}`), 404, "export_not_found");
  });
});

describe("links", () => {
  let record: Rec;
  beforeAll(async () => {
    record = await exportDone(admin, { kind: "deliveries", format: "csv", filters: { agent_id: chat } });
  });
  const path = (token: string) => `${exportsOf()}/${record.export_id}/download?token=${encodeURIComponent(token)}`;

  it("an expired link is refused with url_expired", async () => {
    const { token } = signExportToken({
      exportId: record.export_id,
      organizationId: ctx().orgA.organization_id,
      now: Date.now() - 16 * 60_000,
    });
    expectError(await admin.call("GET", path(token)), 403, "url_expired");
    const fresh = signExportToken({ exportId: record.export_id, organizationId: ctx().orgA.organization_id });
    expect((await admin.call("GET", path(fresh.token))).status).toBeLessThan(400);
  });

  it("a forged or another export's link is refused with invalid_signature", async () => {
    const token = new URL(record.download_url).searchParams.get("token")!;
    const [payload, sig] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), e: 9_999_999_999 }),
    ).toString("base64url");
    expectError(await admin.call("GET", path(`${forged}.${sig}`)), 403, "invalid_signature");
    expectError(await admin.call("GET", path("garbage")), 403, "invalid_signature");
    const other = await exportDone(admin, { kind: "sessions", format: "csv", filters: { agent_id: chat } });
    const otherToken = new URL(other.download_url).searchParams.get("token")!;
    expectError(await admin.call("GET", path(otherToken)), 403, "invalid_signature");
  });

  it("downloads and requests are audited", async () => {
    await fileOf(admin, record);
    const events = await admin.call("GET", orgPath("/audit?action=export.*&limit=100"));
    const mine = events.body.events.filter((e: Rec) => e.target.id === record.export_id).map((e: Rec) => e.action);
    expect(mine).toContain("export.requested");
    expect(mine).toContain("export.downloaded");
  });
});

describe("the management API", () => {
  it("creates, lists, reads and downloads an export with a user token", async () => {
    const base = `/api/v1/organizations/${ctx().orgA.organization_id}/exports`;
    const auth = ctx().orgA.user_token;
    const created = await call("POST", base, {
      auth,
      body: { kind: "sessions", format: "jsonl", filters: { agent_id: chat }, redact: { emails: true } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: "queued", rules_applied: ["emails"], download_url: null });
    let record: Rec = created.body;
    for (let i = 0; i < 600 && record.status !== "succeeded"; i++) {
      await sleep(100);
      record = (await call("GET", `${base}/${created.body.export_id}`, { auth })).body;
    }
    expect(record.download_url).toContain(`${base}/${record.export_id}/download?token=`);
    const list = await call("GET", `${base}?limit=5`, { auth });
    expect(list.body.exports.map((e: Rec) => e.export_id)).toContain(record.export_id);
    const url = new URL(record.download_url);
    let file = await call("GET", `${url.pathname}${url.search}`, { auth });
    if (file.status === 302) {
      const res = await fetch(file.headers.get("location")!);
      file = { ...file, status: res.status, text: await res.text() };
    }
    expect(file.status).toBe(200);
    const rows = rowsOf("jsonl", file.text);
    expect(rows.filter((r) => r.type === "session")).toHaveLength(3);
    expect(file.text).not.toContain("jane.doe@example.com");
    expectError(await call("GET", `${url.pathname}${url.search}`), 401, "unauthorized");
  });
});
