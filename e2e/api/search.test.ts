// The console's search and the case timeline per end user (docs/console.md, Search; Case timeline):
// each kind of search finds what it should and never another organization's record with the same
// metadata, text or user id; the timeline's order, pages and organization bound.
import { beforeAll, describe, expect, it } from "vitest";
import { inOrg, orgPath, signIn, type ConsoleSession } from "./console";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const USER = `user-${tag}`;
const WORD = `zebra${tag}`;
const FLOW = {
  name: "search flow",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true }, user_id: { type: "string" }, order_id: { type: "string" } },
    items: { from: "rows" },
    steps: [{ id: "look", type: "review", when: "item.review = true", message: "look" }],
  },
};

let adminA: ConsoleSession;
let adminB: ConsoleSession;
const a = { key: "", chat: "", flow: "", session: "", message: "", run: "", reviewedRun: "" };
const b = { key: "", chat: "", flow: "", session: "", run: "" };

/** The search and timeline of the organization `s` works in. */
const search = async (s: ConsoleSession, q: string) =>
  s.call("GET", await inOrg(s, `/search?q=${encodeURIComponent(q)}`));
const timeline = async (s: ConsoleSession, user: string, query = "") =>
  s.call("GET", await inOrg(s, `/users/${encodeURIComponent(user)}/timeline${query}`));

async function trigger(key: string, agent: string, body: unknown) {
  const res = await call("POST", `/api/agents/webhook/${agent}`, { auth: key, body });
  expect([200, 202], res.text).toContain(res.status);
  return res.body;
}

async function runUntil(key: string, agent: string, runId: string, done: (s: string) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key });
    if (done(res.body.status)) return;
    if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The same records in both organizations: same user id, metadata, words and run inputs. */
async function seed(org: "orgA" | "orgB", into: typeof a | typeof b) {
  into.key = (await mintKey(ctx()[org], ["agents:invoke"], `search key ${org}`)).key;
  into.chat = (await createAgent(ctx()[org])).agent_id;
  into.flow = (await createAgent(ctx()[org], FLOW)).agent_id;
  const first = await trigger(into.key, into.chat, {
    message: `hello ${WORD} there`,
    user_id: USER,
    metadata: { order_id: `o-${tag}`, n: 1234 },
  });
  into.session = first.session_id;
  const run = await trigger(into.key, into.flow, {
    rows: [{ text: `row ${WORD}` }],
    user_id: USER,
    order_id: `o-${tag}`,
  });
  into.run = run.run_id;
  await runUntil(into.key, into.flow, into.run, (s) => s === "completed");
  return first;
}

beforeAll(async () => {
  adminA = await signIn("admin-a@example.com");
  adminB = await signIn("admin-b@example.com");
  const first = await seed("orgA", a);
  a.message = first.message_id;
  await seed("orgB", b);
  // A second message in A's session, and a run of A with a review decided.
  await trigger(a.key, a.chat, { session_id: a.session, message: "second" });
  const reviewed = await trigger(a.key, a.flow, { rows: [{ review: true }], user_id: USER });
  a.reviewedRun = reviewed.run_id;
  await runUntil(a.key, a.flow, a.reviewedRun, (s) => s === "needs_review");
  const open = await adminA.call("GET", orgPath(`/runs/${a.reviewedRun}/approvals`));
  const resolved = await adminA.call("POST", orgPath(`/runs/${a.reviewedRun}/approvals/resolve`), {
    exception_id: open.body.approvals[0].exception_id,
    resolution: "approved",
  });
  expect(resolved.status, resolved.text).toBe(200);
}, 120_000);

const idsOf = (body: any, kind: string): string[] =>
  (body.groups.find((g: any) => g.kind === kind)?.hits ?? []).map((h: any) => h.id);

describe("search", () => {
  it("an exact id opens that object; another organization's id finds nothing", async () => {
    for (const [id, kind, href] of [
      [a.session, "session", `/sessions/${a.session}`],
      [a.run, "run", `/runs/${a.run}`],
      [a.flow, "agent", `/agents/${a.flow}`],
      [a.message, "message", `/sessions/${a.session}#${a.message}`],
    ]) {
      const res = await search(adminA, id!);
      expect(res.status, res.text).toBe(200);
      expect(res.body.mode).toBe("id");
      expect(res.body.exact).toEqual({ kind, id, href });
    }
    const other = await search(adminB, a.session);
    expect(other.status).toBe(200);
    expect(other.body.exact).toBeNull();
    expect(other.body.groups).toEqual([]);
  });

  it("a unique prefix of 8+ characters opens the object; a shorter one is not read as an id", async () => {
    // The id's first 16 characters: its time part and two random ones.
    const prefix = a.run.slice(0, 16);
    const res = await search(adminA, prefix);
    expect(res.body.mode).toBe("id");
    expect(res.body.exact?.id).toBe(a.run);
    const short = await search(adminA, "run_ab");
    expect(short.status).toBe(200);
    expect(short.body.mode).toBe("text");
    expect(short.body.exact).toBeNull();
  });

  it("an end-user id lists their sessions and runs and offers the timeline; never another organization's", async () => {
    const res = await search(adminA, USER);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ user_id: USER, href: `/users/${USER}` });
    expect(idsOf(res.body, "session")).toEqual([a.session]);
    expect(idsOf(res.body, "run").sort()).toEqual([a.run, a.reviewedRun].sort());
    const all = JSON.stringify(res.body);
    for (const id of [b.session, b.run]) expect(all).not.toContain(id);
  });

  it("field:value matches session metadata and run inputs, as text or number, in the organization only", async () => {
    const res = await search(adminA, `order_id:o-${tag}`);
    expect(res.body.mode).toBe("field");
    expect(idsOf(res.body, "session")).toEqual([a.session]);
    expect(idsOf(res.body, "run")).toEqual([a.run]);
    const number = await search(adminA, "n:1234");
    expect(idsOf(number.body, "session")).toContain(a.session);
    expect(JSON.stringify(number.body)).not.toContain(b.session);
    const other = await search(adminB, `order_id:o-${tag}`);
    expect(idsOf(other.body, "session")).toEqual([b.session]);
  });

  it("free text finds messages and run items, newest first, in the organization only", async () => {
    const res = await search(adminA, WORD);
    expect(res.body.mode).toBe("text");
    const messages = res.body.groups.find((g: any) => g.kind === "message");
    expect(messages.hits.length).toBeGreaterThan(0);
    for (const h of messages.hits) {
      expect(h.href).toBe(`/sessions/${a.session}#${h.id}`);
      expect(h.summary).toContain(WORD);
    }
    const items = res.body.groups.find((g: any) => g.kind === "run_item");
    expect(items.hits.map((h: any) => h.href)).toEqual([`/runs/${a.run}`]);
    const all = JSON.stringify(res.body);
    expect(all).not.toContain(b.session);
    expect(all).not.toContain(b.run);
  });

  it("refuses a text over 200 characters and a bad field name with clear codes", async () => {
    expectError(await search(adminA, "x".repeat(201)), 400, "search_query_too_long");
    expectError(await search(adminA, `${"f".repeat(65)}:1`), 400, "invalid_search_field");
    expectError(await search(adminA, "or$der:1"), 400, "invalid_search_field");
    expectError(await search(adminA, "  "), 400, "invalid_request");
    // Quotes and operators are words, never SQL or tsquery syntax.
    const res = await search(adminA, `' OR 1=1 -- & | ! (`);
    expect(res.status).toBe(200);
  });

  it("a support member may search too", async () => {
    const support = await signIn("support-a@example.com");
    expect((await search(support, a.session)).body.exact?.id).toBe(a.session);
  });
});

describe("case timeline", () => {
  it("lists the user's keys, sessions, messages, runs, reviews and deliveries, newest first", async () => {
    const res = await timeline(adminA, USER, "?limit=200");
    expect(res.status, res.text).toBe(200);
    const kinds = new Set(res.body.entries.map((e: any) => e.kind));
    for (const k of ["access_key", "session", "message", "run", "review"]) expect(kinds).toContain(k);
    const ats = res.body.entries.map((e: any) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const ids = res.body.entries.map((e: any) => e.id);
    for (const id of [a.session, a.message, a.run, a.reviewedRun]) expect(ids).toContain(id);
    expect(res.body.entries.filter((e: any) => e.kind === "message")).toHaveLength(4); // two turns, two replies
    for (const id of [b.session, b.run]) expect(ids).not.toContain(id);
    // The key that started the session and the key that triggered the run, each with a link.
    const keys = res.body.entries.filter((e: any) => e.kind === "access_key");
    expect(keys.map((e: any) => e.href)).toEqual(
      expect.arrayContaining([`/sessions/${a.session}`, `/runs/${a.run}`, `/runs/${a.reviewedRun}`]),
    );
    for (const e of keys) expect(e.summary).toContain(`"search key orgA"`);
    expect(res.body.has_more).toBe(false);
  });

  it("pages by cursor: every entry once, in the same order", async () => {
    const whole = (await timeline(adminA, USER, "?limit=200")).body.entries.map((e: any) => e.id);
    const paged: string[] = [];
    let cursor = "";
    for (let i = 0; i < 50; i++) {
      const res = await timeline(adminA, USER, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.entries.length).toBeLessThanOrEqual(2);
      paged.push(...res.body.entries.map((e: any) => e.id));
      if (!res.body.next_cursor) break;
      cursor = res.body.next_cursor;
    }
    expect(paged).toEqual(whole);
    expectError(await timeline(adminA, USER, "?cursor=nope"), 400, "invalid_request");
  });

  it("another organization's caller sees only their own records of the same user id", async () => {
    const res = await timeline(adminB, USER, "?limit=200");
    const ids = res.body.entries.map((e: any) => e.id);
    expect(ids).toContain(b.session);
    for (const id of [a.session, a.run, a.reviewedRun, a.message]) expect(ids).not.toContain(id);
    const nobody = await timeline(adminA, `nobody-${tag}`);
    expect(nobody.body.entries).toEqual([]);
  });
});
