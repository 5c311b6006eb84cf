// The shared review inbox and the live changes feed through real HTTP (docs/console.md, Reviews and
// Live updates): order and isolation, claims and take-over, reasons, bulk decisions, the decision
// fields of the approvals API, and the long poll.
import { beforeAll, describe, expect, it } from "vitest";
import { inOrg, orgPath, signIn, type ConsoleSession } from "./console";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

const REVIEWED = {
  name: "review inbox",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "check", type: "review", when: "item.n > 0", message: "check it" }],
  },
};

let keyA: string;
let keyB: string;
let agentA: string;
let agentB: string;
let admin: ConsoleSession;
let support: ConsoleSession;
let adminB: ConsoleSession;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A run of `n` items that all wait for review: its id and its exception ids in item order. */
async function reviewRun(agent: string, key: string, n: number) {
  const res = await call("POST", `/api/agents/webhook/${agent}`, {
    auth: key,
    body: { rows: Array.from({ length: n }, (_, i) => ({ n: i + 1 })) },
  });
  expect(res.status, res.text).toBe(202);
  const runId = res.body.run_id as string;
  for (const deadline = Date.now() + 30_000; ;) {
    const run = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key });
    if (run.body.status === "needs_review" && run.body.item_counts.needs_review === n) break;
    if (Date.now() > deadline) throw new Error(`run ${runId} never waited for review: ${run.text}`);
    await sleep(50);
  }
  const open = await call("GET", `/api/agents/${agent}/runs/${runId}/approvals`, { auth: key });
  return { runId, ids: (open.body as { exception_id: string }[]).map((a) => a.exception_id) };
}

const inbox = async (s: ConsoleSession, query: string) => {
  const res = await s.call("GET", await inOrg(s, `/reviews?${query}`));
  expect(res.status, res.text).toBe(200);
  return res.body as { items: { exception_id: string; claimed_by: string | null }[]; next_cursor: string | null };
};
// Each session in its own organization: another organization's admin finds none of org A's items there.
const claim = async (s: ConsoleSession, id: string, takeOver = false) =>
  s.call("POST", await inOrg(s, `/reviews/${id}/claim`), { take_over: takeOver });
const decide = async (s: ConsoleSession, id: string, body: Record<string, unknown>) =>
  s.call("POST", await inOrg(s, `/reviews/${id}/resolve`), body);

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  keyA = (await mintKey(orgA, ["agents:invoke"], "reviews key")).key;
  keyB = (await mintKey(orgB, ["agents:invoke"], "reviews key B")).key;
  agentA = (await createAgent(orgA, REVIEWED)).agent_id;
  agentB = (await createAgent(orgB, REVIEWED)).agent_id;
  admin = await signIn("admin-a@example.com");
  support = await signIn("support-a@example.com");
  adminB = await signIn("admin-b@example.com");
});

describe("review inbox", () => {
  it("lists the organization's waiting items oldest first, keyset paged, and nothing of another organization", async () => {
    const first = await reviewRun(agentA, keyA, 2);
    const second = await reviewRun(agentA, keyA, 1);
    const other = await reviewRun(agentB, keyB, 1);
    const page1 = await inbox(admin, `agent_id=${agentA}&limit=2`);
    const seen = page1.items.map((i) => i.exception_id);
    // The first run's two items (one instant, so in id order) come before the later run's.
    expect([...seen].sort()).toEqual([...first.ids].sort());
    const page2 = await inbox(admin, `agent_id=${agentA}&limit=2&cursor=${page1.next_cursor}`);
    expect(page2.items.map((i) => i.exception_id)).toContain(second.ids[0]);
    const all = await inbox(admin, "limit=100");
    expect(all.items.map((i) => i.exception_id)).not.toContain(other.ids[0]);
    const theirs = await inbox(adminB, "limit=100");
    expect(theirs.items.map((i) => i.exception_id)).toContain(other.ids[0]);
    expect(theirs.items.map((i) => i.exception_id)).not.toContain(first.ids[0]);
    expectError(await claim(adminB, first.ids[0]!), 404, "approval_not_found");
    expectError(await decide(adminB, first.ids[0]!, { resolution: "approved" }), 404, "approval_not_found");
  });

  it("a claim blocks another member (409 approval_claimed) until they take it over, which is audited", async () => {
    const { ids } = await reviewRun(agentA, keyA, 1);
    const id = ids[0]!;
    const claimed = await claim(admin, id);
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body.claimed_by).toBeTruthy();
    const refused = await claim(support, id);
    expectError(refused, 409, "approval_claimed");
    expect(refused.body.error.details.claimed_by).toBe(claimed.body.claimed_by);
    expectError(await decide(support, id, { resolution: "approved" }), 409, "approval_claimed");
    const listed = await inbox(support, `agent_id=${agentA}&claimed=claimed&limit=100`);
    expect(listed.items.find((i) => i.exception_id === id)?.claimed_by).toBe(claimed.body.claimed_by);

    const taken = await claim(support, id, true);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.claimed_by).not.toBe(claimed.body.claimed_by);
    expectError(await decide(admin, id, { resolution: "approved" }), 409, "approval_claimed");
    const audit = await admin.call("GET", orgPath("/audit?action=run.review_taken_over&limit=100"));
    expect(audit.status, audit.text).toBe(200);
    const event = audit.body.events.find((e: { target: { id: string } }) => e.target.id === `item_${id.slice(4)}`);
    expect(event?.actor.label).toBe("support-a@example.com");

    const done = await decide(support, id, { resolution: "approved", reason: "looks right" });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({
      resolution: "approved",
      resolved_by: "support-a@example.com",
      reason: "looks right",
    });
  });

  it("a reject without a reason is 400 invalid_request naming reason, in the inbox and on the run page", async () => {
    const { runId, ids } = await reviewRun(agentA, keyA, 1);
    const res = await decide(admin, ids[0]!, { resolution: "rejected" });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("reason");
    expectError(
      await admin.call("POST", orgPath(`/runs/${runId}/approvals/resolve`), {
        exception_id: ids[0],
        resolution: "rejected",
        reason: " ",
      }),
      400,
      "invalid_request",
    );
    const ok = await decide(admin, ids[0]!, { resolution: "rejected", reason: "duplicate" });
    expect(ok.status, ok.text).toBe(200);
  });

  it("bulk decides each item and reports each outcome: claimed by someone else skipped, unknown failed", async () => {
    const { ids } = await reviewRun(agentA, keyA, 3);
    const [x, y, z] = ids as [string, string, string];
    expect((await claim(support, y)).status).toBe(200);
    const res = await admin.call("POST", orgPath("/reviews/bulk"), {
      exception_ids: [x, y, "exc_unknown"],
      resolution: "rejected",
      reason: "spam",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { outcome: string; code: string | null }) => [r.outcome, r.code])).toEqual([
      ["decided", null],
      ["skipped", "approval_claimed"],
      ["failed", "approval_not_found"],
    ]);
    expect([res.body.decided, res.body.skipped, res.body.failed]).toEqual([1, 1, 1]);
    const again = await admin.call("POST", orgPath("/reviews/bulk"), {
      exception_ids: [y, z],
      resolution: "approved",
      take_over: true,
    });
    expect(again.body.decided).toBe(2);
    expectError(
      await admin.call("POST", orgPath("/reviews/bulk"), { exception_ids: [x], resolution: "rejected" }),
      400,
      "invalid_request",
    );
  });

  it("the approvals API carries resolved_by, resolved_at and reason; an Access Key is not held back by a console claim", async () => {
    const { runId, ids } = await reviewRun(agentA, keyA, 2);
    expect((await claim(support, ids[0]!)).status).toBe(200);
    const open = await call("GET", `/api/agents/${agentA}/runs/${runId}/approvals`, { auth: keyA });
    expect(open.body[0]).toMatchObject({ resolution: null, resolved_by: null, resolved_at: null, reason: null });
    const resolved = await call("POST", `/api/agents/${agentA}/runs/${runId}/approvals/resolve`, {
      auth: keyA,
      body: { exception_id: ids[0], resolution: "rejected", reason: "over the limit" },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ resolution: "rejected", reason: "over the limit" });
    expect(resolved.body.resolved_by).toMatch(/^key_/);
    expect(new Date(resolved.body.resolved_at).getTime()).not.toBeNaN();
    const byConsole = await decide(admin, ids[1]!, { resolution: "modified", modified_data: { n: 2, ok: true } });
    expect(byConsole.status, byConsole.text).toBe(200);
    const decided = await call("GET", `/api/agents/${agentA}/runs/${runId}/approvals?status=resolved`, { auth: keyA });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.map((a: any) => [a.exception_id, a.resolution, a.resolved_by, a.reason])).toEqual([
      [ids[0], "rejected", resolved.body.resolved_by, "over the limit"],
      [ids[1], "modified", "admin-a@example.com", null],
    ]);
    const trail = await support.call("GET", orgPath(`/runs/${runId}/approvals`));
    expect(trail.body.decisions.find((d: any) => d.exception_id === ids[1]).diff).toEqual([
      { path: "/ok", before: null, after: true },
    ]);
  });
});

describe("live changes", () => {
  it("the long poll answers with the topic that changed after its cursor", async () => {
    const { ids } = await reviewRun(agentA, keyA, 1);
    const start = await admin.call("GET", "/api/console/changes?topics=reviews,sessions");
    expect(start.status, start.text).toBe(200);
    expect(start.body.changed).toEqual([]);
    const held = admin.call("GET", `/api/console/changes?topics=reviews,sessions&since=${start.body.cursor}&wait=25`);
    await sleep(300);
    expect((await claim(admin, ids[0]!)).status).toBe(200);
    const answer = await held;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.changed).toContain("reviews");
    expect(answer.body.cursor).not.toBe(start.body.cursor);
  });

  it("after its hold time with nothing changed it answers with nothing, and the same cursor", async () => {
    // The suites share the organizations: a run of another suite may change something meanwhile, so
    // a changed answer must carry a new cursor, and one of a few holds must end with nothing.
    let idle = 0;
    for (let i = 0; i < 5 && idle === 0; i++) {
      const start = await adminB.call("GET", "/api/console/changes?topics=reviews");
      const held = await adminB.call("GET", `/api/console/changes?topics=reviews&since=${start.body.cursor}&wait=1`);
      expect(held.status, held.text).toBe(200);
      if (held.body.changed.length === 0) {
        expect(held.body.cursor).toBe(start.body.cursor);
        idle += 1;
      } else expect(held.body.cursor).not.toBe(start.body.cursor);
    }
    expect(idle).toBe(1);
    expectError(await adminB.call("GET", "/api/console/changes?topics=everything"), 400, "invalid_request");
    expectError(await adminB.call("GET", "/api/console/changes?topics=runs&since=garbage!"), 400, "invalid_request");
  });

  it("with session_id the messages topic wakes for that session only; another organization's session is not found", async () => {
    const echo = (await createAgent(ctx().orgA)).agent_id;
    const say = async (session?: string) => {
      const res = await call("POST", `/api/agents/webhook/${echo}`, {
        auth: keyA,
        body: { message: "hello", ...(session ? { session_id: session } : {}) },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.session_id as string;
    };
    const mine = await say();
    const other = await say();
    const poll = (since?: string) =>
      admin.call(
        "GET",
        `/api/console/changes?topics=messages&session_id=${mine}${since ? `&since=${since}&wait=1` : ""}`,
      );
    const start = await poll();
    expect(start.status, start.text).toBe(200);
    // A message (and its reply) in another session of the organization: the poll holds and answers nothing.
    await say(other);
    const quiet = await poll(start.body.cursor);
    expect(quiet.status, quiet.text).toBe(200);
    expect(quiet.body).toEqual({ cursor: start.body.cursor, changed: [] });
    // One in this session wakes it.
    await say(mine);
    const woken = await poll(start.body.cursor);
    expect(woken.body.changed).toEqual(["messages"]);
    // The organization-wide poll did see the other session's message.
    const orgWide = await admin.call("GET", "/api/console/changes?topics=messages");
    expect(orgWide.body.cursor).not.toBe(start.body.cursor);

    const echoB = (await createAgent(ctx().orgB)).agent_id;
    const sessionB = (await call("POST", `/api/agents/webhook/${echoB}`, { auth: keyB, body: { message: "hi" } })).body
      .session_id as string;
    const foreign = await admin.call("GET", `/api/console/changes?topics=messages&session_id=${sessionB}`);
    const missing = await admin.call(
      "GET",
      `/api/console/changes?topics=messages&session_id=${sessionB.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`,
    );
    expectError(foreign, 404, "session_not_found");
    expectError(missing, 404, "session_not_found");
    const { request_id: _a, ...foreignError } = foreign.body.error;
    const { request_id: _b, ...missingError } = missing.body.error;
    expect(foreignError).toEqual(missingError);
    expectError(
      await admin.call("GET", "/api/console/changes?topics=messages&session_id=nope"),
      400,
      "invalid_request",
    );
  });
});
