import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db";
import { isApiError } from "../errors";
import { stopQueue } from "../queue";
import { listApprovals } from "../runs/approvals";
import { controlRun } from "../runs/service";
import { drive, startRun, workflowAgent } from "../../test-support/workflow";
import { openTestDatabase } from "../../test-support/db";
import { waitForChanges } from "./changes";
import { bulkDecide, claimReview, decideReview, listReviews } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

const REVIEWED = {
  inputs: { rows: { type: "array", required: true } },
  items: { from: "rows" },
  steps: [{ id: "check", type: "review", when: "item.n > 0" }],
};

const alice = { userId: "usr_alice", label: "Alice" };
const bob = { userId: "usr_bob", label: "Bob" };
const actorOf = (u: { userId: string; label: string }) => ({
  type: "user" as const,
  id: u.userId,
  label: `${u.label.toLowerCase()}@example.com`,
});
const baseUrl = "http://localhost:3000";

async function reviewRun(n: number) {
  const { agent, key } = await workflowAgent(REVIEWED);
  const runId = await startRun(agent, key, { rows: Array.from({ length: n }, (_, i) => ({ n: i + 1 })) });
  await drive(runId);
  const open = await listApprovals({ agent, runId });
  return { agent, runId, org: agent.organizationId, ids: open.map((a) => a.exception_id) };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return { code: e.code, status: e.status, details: e.details };
    throw e;
  }
  throw new Error("expected a refusal");
}

const decide = (
  org: string,
  exceptionId: string,
  u: typeof alice,
  more: Partial<Parameters<typeof decideReview>[0]> = {},
) =>
  decideReview({
    organizationId: org,
    exceptionId,
    resolution: "approved",
    takeOver: false,
    userId: u.userId,
    actor: actorOf(u),
    baseUrl,
    ...more,
  });

describe("review inbox", () => {
  it("items of a run that ended leave the inbox; claiming one is 409 invalid_state_transition", async () => {
    const r = await reviewRun(2);
    const open = await listReviews({ organizationId: r.org, limit: 10 });
    expect(open.items.map((i) => i.exception_id).sort()).toEqual([...r.ids].sort());
    await controlRun({ agent: r.agent, runId: r.runId, action: "cancel", actor: actorOf(alice), baseUrl });
    expect((await listReviews({ organizationId: r.org, limit: 10 })).items).toEqual([]);
    expect(
      await refusal(
        claimReview({
          organizationId: r.org,
          exceptionId: r.ids[0]!,
          user: alice,
          takeOver: false,
          actor: actorOf(alice),
        }),
      ),
    ).toMatchObject({
      code: "invalid_state_transition",
      status: 409,
      details: { current_status: "cancelled", run_id: r.runId },
    });
  });

  it("lists the organization's open items oldest first, and none of another organization's", async () => {
    const a = await reviewRun(3);
    const b = await reviewRun(2);
    // Items of one run share their creation instant: spread them so that the order is the items'.
    await (
      await prisma()
    )
      .$executeRaw`UPDATE run_items SET created_at = created_at - (interval '1 second' * (10 - index)) WHERE run_id = ${a.runId}`;
    const page = await listReviews({ organizationId: a.org, limit: 2 });
    expect(page.items.map((i) => i.exception_id)).toEqual(a.ids.slice(0, 2));
    expect(page.has_more).toBe(true);
    const next = await listReviews({ organizationId: a.org, limit: 2, cursor: page.next_cursor! });
    expect(next.items.map((i) => i.exception_id)).toEqual([a.ids[2]]);
    expect((await listReviews({ organizationId: b.org, limit: 10 })).items.map((i) => i.exception_id).sort()).toEqual(
      [...b.ids].sort(),
    );
    expect(
      await refusal(
        claimReview({ organizationId: b.org, exceptionId: a.ids[0]!, user: bob, takeOver: false, actor: actorOf(bob) }),
      ),
    ).toMatchObject({ code: "approval_not_found" });
  });

  it("a claim blocks another member's decision (409 approval_claimed) until taken over, which is audited", async () => {
    const r = await reviewRun(1);
    const [id] = r.ids as [string];
    const claimed = await claimReview({
      organizationId: r.org,
      exceptionId: id,
      user: alice,
      takeOver: false,
      actor: actorOf(alice),
    });
    expect(claimed.claimed_by).toBe("Alice");
    expect((await listReviews({ organizationId: r.org, limit: 10, claimed: "claimed" })).items).toHaveLength(1);
    expect((await listReviews({ organizationId: r.org, limit: 10, claimed: "unclaimed" })).items).toHaveLength(0);
    expect(
      await refusal(
        claimReview({ organizationId: r.org, exceptionId: id, user: bob, takeOver: false, actor: actorOf(bob) }),
      ),
    ).toMatchObject({
      code: "approval_claimed",
      status: 409,
      details: { claimed_by: "Alice" },
    });
    expect(await refusal(decide(r.org, id, bob))).toMatchObject({ code: "approval_claimed" });
    const taken = await claimReview({
      organizationId: r.org,
      exceptionId: id,
      user: bob,
      takeOver: true,
      actor: actorOf(bob),
    });
    expect(taken.claimed_by).toBe("Bob");
    const events = await (
      await prisma()
    ).auditEvent.findMany({ where: { organizationId: r.org, action: "run.review_taken_over" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.actorLabel).toBe("bob@example.com");
    expect(events[0]!.data).toMatchObject({ exception_id: id, from: "Alice" });
    // Now Alice is the other one; Bob decides, which releases the claim.
    expect(await refusal(decide(r.org, id, alice))).toMatchObject({ code: "approval_claimed" });
    const done = await decide(r.org, id, bob, { reason: "fine" });
    expect(done).toMatchObject({ resolution: "approved", resolved_by: "bob@example.com", reason: "fine" });
  });

  it("a claim past claimed_until no longer blocks anyone", async () => {
    const r = await reviewRun(1);
    const [id] = r.ids as [string];
    await claimReview({ organizationId: r.org, exceptionId: id, user: alice, takeOver: false, actor: actorOf(alice) });
    await (
      await prisma()
    )
      .$executeRaw`UPDATE run_items SET claimed_until = claimed_until - interval '16 minutes' WHERE id = ${`item_${id.slice(4)}`}`;
    expect((await listReviews({ organizationId: r.org, limit: 10 })).items[0]!.claimed_by).toBeNull();
    const mine = await claimReview({
      organizationId: r.org,
      exceptionId: id,
      user: bob,
      takeOver: false,
      actor: actorOf(bob),
    });
    expect(mine.claimed_by).toBe("Bob");
    const events = await (
      await prisma()
    ).auditEvent.count({ where: { organizationId: r.org, action: "run.review_taken_over" } });
    expect(events).toBe(0);
  });

  it("a reject needs a reason; the decision, its reason and an edit's diff are stored and listed", async () => {
    const r = await reviewRun(2);
    const [x, y] = r.ids as [string, string];
    expect(await refusal(decide(r.org, x, alice, { resolution: "rejected" }))).toMatchObject({
      code: "invalid_request",
      status: 400,
    });
    await decide(r.org, x, alice, { resolution: "rejected", reason: "duplicate order" });
    await decide(r.org, y, alice, { resolution: "modified", modifiedData: { n: 2, note: "checked" } });
    const resolved = await listApprovals({ agent: r.agent, runId: r.runId, status: "resolved" });
    expect(resolved.map((a) => [a.resolution, a.resolved_by, a.reason])).toEqual([
      ["rejected", "alice@example.com", "duplicate order"],
      ["modified", "alice@example.com", null],
    ]);
    expect(resolved.every((a) => a.resolved_at !== null)).toBe(true);
    const item = await (await prisma()).runItem.findUniqueOrThrow({ where: { id: `item_${y.slice(4)}` } });
    expect(item.resolutionDiff).toEqual([{ path: "/note", before: null, after: "checked" }]);
  });

  it("bulk decides each item through the same service and reports each outcome; claimed items are skipped unless taken over", async () => {
    const r = await reviewRun(3);
    const [x, y, z] = r.ids as [string, string, string];
    await claimReview({ organizationId: r.org, exceptionId: y, user: bob, takeOver: false, actor: actorOf(bob) });
    const common = {
      organizationId: r.org,
      resolution: "rejected" as const,
      reason: "spam",
      userId: alice.userId,
      actor: actorOf(alice),
      baseUrl,
    };
    const first = await bulkDecide({ ...common, exceptionIds: [x, y, "exc_unknown"], takeOver: false });
    expect(first.results).toEqual([
      { exception_id: x, outcome: "decided", code: null, message: null },
      { exception_id: y, outcome: "skipped", code: "approval_claimed", message: expect.stringContaining("Bob") },
      { exception_id: "exc_unknown", outcome: "failed", code: "approval_not_found", message: expect.any(String) },
    ]);
    expect([first.decided, first.skipped, first.failed]).toEqual([1, 1, 1]);
    const second = await bulkDecide({ ...common, exceptionIds: [y, z], takeOver: true });
    expect(second.decided).toBe(2);
    expect(
      await (await prisma()).auditEvent.count({ where: { organizationId: r.org, action: "run.review_taken_over" } }),
    ).toBe(1);
  });
});

describe("live changes", () => {
  it("answers with the topic that changed after the cursor, and with nothing after its hold", async () => {
    const r = await reviewRun(1);
    const signal = new AbortController().signal;
    const base = {
      organizationId: r.org,
      userId: alice.userId,
      topics: ["reviews" as const, "sessions" as const],
      signal,
    };
    const first = await waitForChanges(base);
    expect(first.changed).toEqual([]);
    const idle = await waitForChanges({ ...base, since: first.cursor, wait: 1 });
    expect(idle).toEqual({ cursor: first.cursor, changed: [] });
    const waiting = waitForChanges({ ...base, since: first.cursor, wait: 20 });
    await claimReview({
      organizationId: r.org,
      exceptionId: r.ids[0]!,
      user: alice,
      takeOver: false,
      actor: actorOf(alice),
    });
    const changed = await waiting;
    expect(changed.changed).toEqual(["reviews"]);
    expect(changed.cursor).not.toBe(first.cursor);
  });
});
