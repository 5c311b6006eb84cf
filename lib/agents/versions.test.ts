// Agent versions (docs/api.md, Versions) on a real database: drafts never served, publish, pins,
// restore without redacted placeholders, rollback twice, one winner among concurrent draft writes,
// the structure-aware diff, and the canary's share and stickiness.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import { bootstrap } from "../orgs/service";
import { evaluateRolloutGuards } from "../alerts/guards";
import { createAlertRule } from "../alerts/service";
import { agentAt, canaryBucket, pinnedVersion, servingVersion } from "../serving";
import { flushUsage, recordUsage } from "../usage/recorder";
import { createAgent, loadAgentForKey } from "./service";
import {
  changeRollout,
  diffVersions,
  getVersion,
  listVersions,
  publishDraft,
  restoreVersion,
  rollback,
  updateAgent,
} from "./versions";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
const actor = { type: "user" as const, id: "usr_test", label: "admin@example.com" };

beforeAll(async () => {
  db = await openTestDatabase();
  orgId = (await bootstrap({ org: "versions", email: "v@example.com", password: "password-1" })).organization_id;
});
afterAll(() => db.dispose());

const echo = (delay_ms: number) => ({ type: "echo" as const, delay_ms });
const newAgent = (name = "bot") =>
  createAgent({ organizationId: orgId, input: { name, kind: "conversational", runtime: echo(0) }, actor });
const load = (agentId: string) => loadAgentForKey(orgId, agentId);
const edit = (agentId: string, input: Parameters<typeof updateAgent>[0]["input"], ifMatch?: string) =>
  updateAgent({ organizationId: orgId, agentId, input, actor, ifMatch });
const publish = (agentId: string, input: Record<string, unknown> = {}) =>
  publishDraft({ organizationId: orgId, agentId, input: { rollout_percent: 100, ...input }, actor });

describe("versions", () => {
  it("a new agent is version 1, published; an edit writes a draft that no trigger is served", async () => {
    const a = await newAgent();
    expect(a).toMatchObject({ published_version: 1, draft_version: null, rollout: null });
    const edited = await edit(a.agent_id, { runtime: echo(5), note: "slower" });
    expect(edited).toMatchObject({ published_version: 1, draft_version: 2, runtime: echo(0) });
    const agent = await load(a.agent_id);
    // Every new session and run is served the published version, whatever its key.
    for (const key of ["u1", "u2", "sess_x", "run_y"]) expect(servingVersion(agent, key)).toBe(1);
    expect((await agentAt(agent, servingVersion(agent, "u1"))).runtime).toEqual(echo(0));
    // The draft is no pin for a trigger, only for the console's test console.
    await expect(pinnedVersion(agent, 2)).rejects.toMatchObject({
      code: "invalid_agent_version",
      details: { fields: [{ field: "agent_version", message: expect.stringMatching(/never published/) }] },
    });
    expect(await pinnedVersion(agent, 2, { allowDraft: true })).toBe(2);
    const draft = await getVersion({ organizationId: orgId, agentId: a.agent_id, version: 2 });
    expect(draft).toMatchObject({
      state: "draft",
      traffic_percent: 0,
      base_version: 1,
      note: "slower",
      runtime: echo(5),
    });
    expect(draft.created_by).toEqual({ type: "user", id: "usr_test", label: "admin@example.com" });
  });

  it("publish makes the draft live; publishing nothing new is 409 nothing_to_publish", async () => {
    const a = await newAgent();
    await expect(publish(a.agent_id)).rejects.toMatchObject({ code: "nothing_to_publish" });
    await edit(a.agent_id, { runtime: echo(7) });
    const published = await publish(a.agent_id, { note: "go" });
    expect(published).toMatchObject({ published_version: 2, draft_version: null, runtime: echo(7) });
    expect(servingVersion(await load(a.agent_id), "anyone")).toBe(2);
    await expect(publish(a.agent_id)).rejects.toMatchObject({ code: "nothing_to_publish" });
    // A draft equal to what serves is nothing new either.
    await edit(a.agent_id, { runtime: echo(8) });
    await edit(a.agent_id, { runtime: echo(7), base_version: 3 });
    await expect(publish(a.agent_id)).rejects.toMatchObject({ code: "nothing_to_publish" });
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { targetId: a.agent_id, action: "agent.published" },
    });
    expect(audit.data).toMatchObject({
      version: 2,
      note: "go",
      before: { published_version: 1 },
      after: { published_version: 2, previous_version: 1 },
    });
  });

  it("PATCH with publish: true edits and publishes in one call", async () => {
    const a = await newAgent();
    const done = await edit(a.agent_id, { runtime: echo(3), publish: true });
    expect(done).toMatchObject({ published_version: 2, draft_version: null, runtime: echo(3) });
  });

  it("of two draft writes naming the same base, exactly one wins; the other is 409 draft_conflict naming the newer draft", async () => {
    const a = await newAgent();
    const results = await Promise.allSettled([
      edit(a.agent_id, { runtime: echo(11), base_version: 1 }),
      edit(a.agent_id, { runtime: echo(12), base_version: 1 }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "draft_conflict", details: { draft_version: 2, base_version: 1 } });
    // Without a base, a write may only create the draft: with one there, it is refused too.
    await expect(edit(a.agent_id, { runtime: echo(13) })).rejects.toMatchObject({ code: "draft_conflict" });
    // If-Match carries the same precondition; a stale ETag is refused, the head's accepted.
    await expect(edit(a.agent_id, { runtime: echo(14) }, '"v1"')).rejects.toMatchObject({ code: "draft_conflict" });
    expect(await edit(a.agent_id, { runtime: echo(14) }, '"v2"')).toMatchObject({ draft_version: 3 });
    // Renaming touches no version and needs no base.
    expect(await edit(a.agent_id, { name: "renamed" })).toMatchObject({ name: "renamed", draft_version: 3 });
  });

  it("restore copies a version's stored values into the draft, never the redacted placeholders answers show", async () => {
    const created = await createAgent({
      organizationId: orgId,
      input: {
        name: "http",
        kind: "conversational",
        runtime: {
          type: "http",
          timeout_ms: 20000,
          url: "https://agents.example.com/reply",
          headers: { "x-api-key": "tenant-secret-123" },
        },
      },
      actor,
    });
    expect(created.runtime).toMatchObject({ headers: { "x-api-key": "[redacted]" } });
    // An edit that sends the redacted value back keeps the stored one; then another URL is published.
    await edit(created.agent_id, {
      runtime: {
        type: "http",
        timeout_ms: 20000,
        url: "https://agents.example.com/v2",
        headers: { "x-api-key": "[redacted]" },
      },
      publish: true,
    });
    await edit(created.agent_id, {
      runtime: {
        type: "http",
        timeout_ms: 20000,
        url: "https://agents.example.com/v3",
        headers: { "x-api-key": "other-secret-456" },
      },
      publish: true,
    });
    const restored = await restoreVersion({
      organizationId: orgId,
      agentId: created.agent_id,
      version: 1,
      input: {},
      actor,
    });
    expect(restored.draft_version).toBe(4);
    const row = await db.prisma.agentVersion.findUniqueOrThrow({
      where: { agentId_version: { agentId: created.agent_id, version: 4 } },
    });
    expect(row.runtime).toEqual({
      type: "http",
      timeout_ms: 20000,
      url: "https://agents.example.com/reply",
      headers: { "x-api-key": "tenant-secret-123" },
    });
    expect(row).toMatchObject({ baseVersion: 1, note: "Restored from version 1" });
    const v2 = await db.prisma.agentVersion.findUniqueOrThrow({
      where: { agentId_version: { agentId: created.agent_id, version: 2 } },
    });
    expect(v2.runtime).toMatchObject({ headers: { "x-api-key": "tenant-secret-123" } });
    // Restoring the draft itself is refused; so is a restore over the draft without naming it.
    await expect(
      restoreVersion({ organizationId: orgId, agentId: created.agent_id, version: 4, input: {}, actor }),
    ).rejects.toMatchObject({ code: "version_is_draft" });
    await expect(
      restoreVersion({ organizationId: orgId, agentId: created.agent_id, version: 2, input: {}, actor }),
    ).rejects.toMatchObject({ code: "draft_conflict" });
    const published = await publish(created.agent_id);
    expect(published.published_version).toBe(4);
    expect((await load(created.agent_id)).runtime).toMatchObject({ headers: { "x-api-key": "tenant-secret-123" } });
  });

  it("rollback makes what served before live again; twice returns to where it started", async () => {
    const a = await newAgent();
    await expect(rollback({ organizationId: orgId, agentId: a.agent_id, actor })).rejects.toMatchObject({
      code: "nothing_to_roll_back",
    });
    await edit(a.agent_id, { runtime: echo(21), publish: true });
    await edit(a.agent_id, { runtime: echo(22), publish: true });
    const back = await rollback({ organizationId: orgId, agentId: a.agent_id, actor, note: "bad prompt" });
    expect(back).toMatchObject({ published_version: 2, runtime: echo(21) });
    const again = await rollback({ organizationId: orgId, agentId: a.agent_id, actor });
    expect(again).toMatchObject({ published_version: 3, runtime: echo(22) });
    const events = await db.prisma.auditEvent.findMany({
      where: { targetId: a.agent_id, action: "agent.rolled_back" },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ from_version: 3, to_version: 2, note: "bad prompt", automatic: false }),
      expect.objectContaining({ from_version: 2, to_version: 3 }),
    ]);
    const list = await listVersions({ organizationId: orgId, agentId: a.agent_id, limit: 2 });
    expect(list.versions.map((v) => [v.version, v.state])).toEqual([
      [3, "published"],
      [2, "rolled_back"],
    ]);
    const rest = await listVersions({
      organizationId: orgId,
      agentId: a.agent_id,
      limit: 2,
      cursor: list.next_cursor!,
    });
    expect(rest).toMatchObject({ versions: [{ version: 1, state: "retired" }], next_cursor: null });
  });

  it("a canary serves its share of new keys, within 10 points over 1,000, and keeps each key on one version", async () => {
    const a = await newAgent();
    await edit(a.agent_id, { runtime: echo(31) });
    const started = await publish(a.agent_id, { rollout_percent: 30 });
    expect(started).toMatchObject({
      published_version: 1,
      draft_version: null,
      rollout: { version: 2, percent: 30, from_version: 1 },
    });
    await expect(publish(a.agent_id)).rejects.toMatchObject({ code: "rollout_in_progress" });
    const agent = await load(a.agent_id);
    const keys = Array.from({ length: 1000 }, (_, i) => `end-user-${i}`);
    const canary = keys.filter((k) => servingVersion(agent, k) === 2);
    expect(Math.abs(canary.length / 10 - 30)).toBeLessThanOrEqual(10);
    // Sticky: the same key, the same version; raising the share keeps everyone who had the new one.
    for (const k of keys.slice(0, 50)) expect(servingVersion(agent, k)).toBe(servingVersion(agent, k));
    await changeRollout({ organizationId: orgId, agentId: a.agent_id, percent: 60, actor });
    const wider = await load(a.agent_id);
    for (const k of canary) expect(servingVersion(wider, k)).toBe(2);
    expect(canaryBucket(a.agent_id, 2, "end-user-1")).toBe(canaryBucket(a.agent_id, 2, "end-user-1"));
    // 100 completes it: the new version is the published one.
    const done = await changeRollout({ organizationId: orgId, agentId: a.agent_id, percent: 100, actor });
    expect(done).toMatchObject({ published_version: 2, rollout: null, runtime: echo(31) });
    await expect(
      changeRollout({ organizationId: orgId, agentId: a.agent_id, percent: 50, actor }),
    ).rejects.toMatchObject({
      code: "no_rollout",
    });
  });

  it("rollback during a rollout ends it: the published version serves everyone again", async () => {
    const a = await newAgent();
    await edit(a.agent_id, { runtime: echo(41) });
    await publish(a.agent_id, { rollout_percent: 50 });
    const back = await rollback({ organizationId: orgId, agentId: a.agent_id, actor });
    expect(back).toMatchObject({ published_version: 1, rollout: null, runtime: echo(0) });
    const agent = await load(a.agent_id);
    for (const k of ["a", "b", "c", "d", "e", "f"]) expect(servingVersion(agent, k)).toBe(1);
    const v2 = await getVersion({ organizationId: orgId, agentId: a.agent_id, version: 2 });
    expect(v2.state).toBe("rolled_back");
  });

  it("a version of another agent is missing (404 agent_version_not_found); another organization's agent too", async () => {
    const a = await newAgent();
    const b = await newAgent();
    await edit(b.agent_id, { runtime: echo(1) });
    await expect(getVersion({ organizationId: orgId, agentId: a.agent_id, version: 2 })).rejects.toMatchObject({
      code: "agent_version_not_found",
    });
    const other = await bootstrap({ org: "other-versions", email: "o@example.com", password: "password-1" });
    await expect(
      getVersion({ organizationId: other.organization_id, agentId: a.agent_id, version: 1 }),
    ).rejects.toMatchObject({ code: "agent_not_found" });
    await expect(pinnedVersion(await load(a.agent_id), 2)).rejects.toMatchObject({ code: "invalid_agent_version" });
  });
});

describe("diff", () => {
  it("names a step added, removed or changed by its id, one entry each, and redacts credentials", async () => {
    const workflow = (steps: unknown[]) => ({ inputs: { x: { type: "number" as const } }, steps });
    const created = await createAgent({
      organizationId: orgId,
      input: {
        name: "wf",
        kind: "workflow",
        runtime: {
          type: "http",
          timeout_ms: 20000,
          url: "https://a.example.com/",
          headers: { authorization: "Bearer sk-abcdefghijklmnopqrstuvwxyz" },
        },
        workflow: workflow([
          { id: "a", type: "transform", expression: "item" },
          { id: "b", type: "wait", ms: 1 },
        ]) as never,
      },
      actor,
    });
    await edit(created.agent_id, {
      runtime: {
        type: "http",
        timeout_ms: 20000,
        url: "https://a.example.com/",
        headers: { authorization: "Bearer sk-zyxwvutsrqponmlkjihgfedcba" },
      },
      workflow: workflow([
        { id: "b", type: "wait", ms: 2 },
        { id: "c", type: "wait", ms: 3 },
      ]) as never,
    });
    const d = await diffVersions({ organizationId: orgId, agentId: created.agent_id, from: 1, to: 2 });
    expect(d.changes).toEqual([
      { path: "runtime.headers.authorization", change: "changed", from: "[redacted]", to: "[redacted]" },
      {
        path: "workflow.steps.a",
        change: "removed",
        from: { id: "a", type: "transform", expression: "item" },
        to: null,
      },
      {
        path: "workflow.steps.b",
        change: "changed",
        from: { id: "b", type: "wait", ms: 1 },
        to: { id: "b", type: "wait", ms: 2 },
      },
      { path: "workflow.steps.c", change: "added", from: null, to: { id: "c", type: "wait", ms: 3 } },
    ]);
    expect(JSON.stringify(d)).not.toContain("sk-");
  });
});

describe("rollout guards", () => {
  it("roll a canary back when a named rule breaches on its own traffic: audited, an alert event, a delivery", async () => {
    const a = await newAgent("guarded");
    const rule = await createAlertRule({
      organizationId: orgId,
      input: {
        name: "canary errors",
        kind: "error_rate",
        threshold: 50,
        window_minutes: 5,
        min_volume: 4,
        url: "https://hooks.example.com/alerts",
      } as never,
      actor,
    });
    await edit(a.agent_id, { runtime: echo(51) });
    await publish(a.agent_id, { rollout_percent: 20, guard_rule_ids: [rule.rule_id] });
    const at = new Date();
    const fail = (version: number, n: number) => {
      for (let i = 0; i < n; i++) {
        recordUsage({
          organizationId: orgId,
          agentId: a.agent_id,
          at,
          repliesFailed: 1,
          latencyMs: 10,
          agentVersion: version,
        });
      }
    };
    // Below the rule's volume nothing is judged; the published version's errors are not the canary's.
    fail(2, 3);
    fail(1, 20);
    await flushUsage();
    expect(await evaluateRolloutGuards({ now: at })).toEqual([]);
    expect((await load(a.agent_id)).rollout).not.toBeNull();
    fail(2, 1);
    await flushUsage();
    const moves = await evaluateRolloutGuards({ now: at });
    expect(moves).toEqual([{ agentId: a.agent_id, ruleId: rule.rule_id, version: 2, value: 100 }]);
    const agent = await load(a.agent_id);
    expect(agent.rollout).toBeNull();
    expect(servingVersion(agent, "anyone")).toBe(1);
    // Once only: the rollout is over.
    expect(await evaluateRolloutGuards({ now: at })).toEqual([]);
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { targetId: a.agent_id, action: "agent.rolled_back" },
    });
    expect(audit).toMatchObject({ actorType: "system", actorLabel: "rollout guard" });
    expect(audit.data).toMatchObject({
      automatic: true,
      from_version: 2,
      to_version: 1,
      guard: { rule_id: rule.rule_id, value: 100 },
    });
    const event = await db.prisma.alertEvent.findFirstOrThrow({ where: { ruleId: rule.rule_id } });
    expect(event).toMatchObject({
      event: "fired",
      value: 100,
      rollout: { agent_id: a.agent_id, version: 2, rolled_back_to: 1 },
    });
    const delivery = await db.prisma.callbackDelivery.findUniqueOrThrow({ where: { id: event.deliveryId! } });
    expect(delivery).toMatchObject({ event: "alert.fired", url: "https://hooks.example.com/alerts" });
    expect(JSON.parse(delivery.body).data).toMatchObject({
      rule_id: rule.rule_id,
      rollout: { version: 2, rolled_back_to: 1 },
    });
  });

  it("refuses guard rules of another kind, agent or organization, naming the field", async () => {
    const a = await newAgent("guard-check");
    const rule = await createAlertRule({
      organizationId: orgId,
      input: { name: "reviews", kind: "review_waiting", threshold: 5 } as never,
      actor,
    });
    await edit(a.agent_id, { runtime: echo(61) });
    await expect(publish(a.agent_id, { rollout_percent: 10, guard_rule_ids: [rule.rule_id] })).rejects.toMatchObject({
      code: "invalid_request",
      details: { fields: [{ field: "guard_rule_ids.0", message: expect.stringMatching(/error_rate or latency_p95/) }] },
    });
    await expect(
      publish(a.agent_id, { rollout_percent: 10, guard_rule_ids: ["alr_0000000000000000000000"] }),
    ).rejects.toMatchObject({ code: "invalid_request" });
  });
});
