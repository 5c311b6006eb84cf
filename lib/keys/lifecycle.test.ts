// The lifecycle of an Access Key past minting (docs/api.md, Access Keys): expiry, roll with a grace
// period and the worker's key sweep, change after mint, the usage preview. Time moves with the
// test clock (lib/clock.ts), never by sleeping; the verification cache is warm where it matters.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clearKeyCache, verifyAccessKey } from "../auth/access-keys";
import { resetClock, shiftClock } from "../clock";
import { createAgent } from "../agents/service";
import { newId } from "../ids";
import { bootstrap } from "../orgs/service";
import { openTestDatabase } from "../../test-support/db";
import { keyUsagePreview, mintKey, revokeRolledKeys, rollKey, updateKey } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
let otherOrgId: string;
let agentId: string;
let otherAgentId: string;
const actor = { type: "user" as const, id: "usr_test", label: "admin@example.com" };
const HOUR = 3_600_000;

beforeAll(async () => {
  db = await openTestDatabase();
  orgId = (await bootstrap({ org: "life", email: "life@example.com", password: "password-1" })).organization_id;
  otherOrgId = (await bootstrap({ org: "other", email: "other@example.com", password: "password-1" })).organization_id;
  const echo = { kind: "conversational" as const, runtime: { type: "echo" as const } };
  agentId = (await createAgent({ organizationId: orgId, input: { name: "a", ...echo } as never, actor })).agent_id;
  otherAgentId = (await createAgent({ organizationId: orgId, input: { name: "b", ...echo } as never, actor })).agent_id;
});
afterAll(() => db.dispose());
afterEach(() => resetClock());

const mint = (input: Record<string, unknown> = {}) =>
  mintKey({ organizationId: orgId, input: { name: "k", permissions: ["agents:invoke"], ...input }, actor });

describe("expiry", () => {
  it("an expired key is refused with access_key_expired, even while its verification is cached", async () => {
    clearKeyCache();
    const expiresAt = new Date(Date.now() + HOUR).toISOString();
    const key = await mint({ expires_at: expiresAt });
    expect(key.expires_at).toBe(expiresAt);
    await verifyAccessKey(key.key); // cached from here on
    shiftClock(HOUR + 1000);
    await expect(verifyAccessKey(key.key)).rejects.toMatchObject({
      code: "access_key_expired",
      status: 401,
      message: expect.stringContaining(`expired at ${expiresAt}`),
    });
  });

  it("refuses an expiry in the past or more than 5 years away", async () => {
    await expect(mint({ expires_at: new Date(Date.now() - 1000).toISOString() })).rejects.toMatchObject({
      code: "invalid_request",
      details: { fields: [{ field: "expires_at", message: "must be in the future" }] },
    });
    await expect(mint({ expires_at: new Date(Date.now() + 6 * 365 * 86_400_000).toISOString() })).rejects.toMatchObject(
      { code: "invalid_request", details: { fields: [{ field: "expires_at" }] } },
    );
  });
});

describe("roll", () => {
  it("the successor copies the key; the old one works through the grace, is refused after (cached or not), and the sweep revokes it", async () => {
    clearKeyCache();
    const old = await mint({ rate_limit_per_minute: 77, agent_ids: [agentId] });
    await verifyAccessKey(old.key);
    const next = await rollKey({
      organizationId: orgId,
      keyId: old.key_id,
      input: { grace_period_seconds: 3600 },
      actor,
    });
    expect(next).toMatchObject({
      name: old.name,
      permissions: old.permissions,
      rate_limit_per_minute: 77,
      agent_ids: [agentId],
      rolled_from_key_id: old.key_id,
    });
    expect(next.key).not.toBe(old.key);
    expect((await verifyAccessKey(old.key)).keyId).toBe(old.key_id); // in grace, cached again
    expect(await revokeRolledKeys()).toEqual([]);

    shiftClock(HOUR + 1000);
    await expect(verifyAccessKey(old.key)).rejects.toMatchObject({ code: "unauthorized" });
    expect((await verifyAccessKey(next.key)).keyId).toBe(next.key_id);
    expect(await revokeRolledKeys()).toEqual([old.key_id]);
    const row = await db.prisma.accessKey.findUniqueOrThrow({ where: { id: old.key_id } });
    expect(row.revokedAt).toEqual(row.revokeAt);
    expect(row.rolledToId).toBe(next.key_id);
    const audit = await db.prisma.auditEvent.findMany({
      where: { targetId: old.key_id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([
      ["access_key.created", "user"],
      ["access_key.rolled", "user"],
      ["access_key.revoked", "system"],
    ]);
  });

  it("a rolled key cannot be rolled again (409 access_key_rolled), nor a revoked one (409 access_key_revoked)", async () => {
    const old = await mint();
    await rollKey({ organizationId: orgId, keyId: old.key_id, input: { grace_period_seconds: 3600 }, actor });
    await expect(
      rollKey({ organizationId: orgId, keyId: old.key_id, input: { grace_period_seconds: 3600 }, actor }),
    ).rejects.toMatchObject({ code: "access_key_rolled", status: 409 });
    const now = await mint();
    await rollKey({ organizationId: orgId, keyId: now.key_id, input: { grace_period_seconds: 0 }, actor });
    await expect(verifyAccessKey(now.key)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(
      rollKey({ organizationId: orgId, keyId: now.key_id, input: { grace_period_seconds: 0 }, actor }),
    ).rejects.toMatchObject({ code: "access_key_revoked", status: 409 });
  });
});

describe("an expired key is over", () => {
  it("is never rolled (409 access_key_expired_for_good) nor given another expiry; its name may change", async () => {
    const expiresAt = new Date(Date.now() + HOUR).toISOString();
    const key = await mint({ expires_at: expiresAt });
    shiftClock(HOUR + 1000);
    const refused = { code: "access_key_expired_for_good", status: 409, details: { expired_at: expiresAt } };
    for (const grace of [0, 3600]) {
      await expect(
        rollKey({ organizationId: orgId, keyId: key.key_id, input: { grace_period_seconds: grace }, actor }),
      ).rejects.toMatchObject(refused);
    }
    const later = new Date(Date.now() + 48 * HOUR).toISOString();
    for (const expires_at of [null, later]) {
      await expect(
        updateKey({ organizationId: orgId, keyId: key.key_id, input: { expires_at }, actor }),
      ).rejects.toMatchObject(refused);
    }
    const renamed = await updateKey({ organizationId: orgId, keyId: key.key_id, input: { name: "old one" }, actor });
    expect(renamed).toMatchObject({ name: "old one", expires_at: expiresAt });
    await expect(verifyAccessKey(key.key)).rejects.toMatchObject({ code: "access_key_expired" });
    const rows = await db.prisma.accessKey.count({ where: { rolledFromId: key.key_id } });
    expect(rows).toBe(0);
  });
});

describe("change after mint", () => {
  it("changes name, limit, scope and expiry at once (cache evicted), never the secret, with before/after in the audit", async () => {
    clearKeyCache();
    const key = await mint();
    const before = await db.prisma.accessKey.findUniqueOrThrow({ where: { id: key.key_id } });
    await verifyAccessKey(key.key);
    const expiresAt = new Date(Date.now() + 48 * HOUR).toISOString();
    const changed = await updateKey({
      organizationId: orgId,
      keyId: key.key_id,
      input: { name: "renamed", rate_limit_per_minute: 5, agent_ids: [otherAgentId], expires_at: expiresAt },
      actor,
    });
    expect(changed).toMatchObject({ name: "renamed", rate_limit_per_minute: 5, agent_ids: [otherAgentId] });
    expect(await verifyAccessKey(key.key)).toMatchObject({ name: "renamed", agentIds: [otherAgentId] });
    const after = await db.prisma.accessKey.findUniqueOrThrow({ where: { id: key.key_id } });
    expect(after.keyHash).toBe(before.keyHash);
    const row = await db.prisma.auditEvent.findFirstOrThrow({
      where: { targetId: key.key_id, action: "access_key.updated" },
    });
    expect(row.data).toMatchObject({
      before: { name: "k", rate_limit_per_minute: null, agent_ids: null, expires_at: null },
      after: { name: "renamed", rate_limit_per_minute: 5, agent_ids: [otherAgentId], expires_at: expiresAt },
    });
    await expect(
      updateKey({ organizationId: orgId, keyId: key.key_id, input: { agent_ids: ["agt_nosuchagent"] }, actor }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    await expect(
      updateKey({ organizationId: otherOrgId, keyId: key.key_id, input: { name: "x" }, actor }),
    ).rejects.toMatchObject({ code: "access_key_not_found" });
  });
});

describe("usage preview", () => {
  it("counts what the key started, bounded, and answers only its own organization", async () => {
    const key = await mint();
    const project = (await db.prisma.agent.findUniqueOrThrow({ where: { id: agentId } })).projectId;
    const at = Date.now();
    const sessions = [
      { id: newId("sess"), userId: "alice", at: at - HOUR },
      { id: newId("sess"), userId: "bob", at: at - 3 * 86_400_000 },
      { id: newId("sess"), userId: "", at: at - 10 * 86_400_000 },
    ];
    for (const s of sessions) {
      await db.prisma.session.create({
        data: {
          id: s.id,
          organizationId: orgId,
          projectId: project,
          agentId,
          userId: s.userId,
          accessKeyId: key.key_id,
          createdAt: new Date(s.at),
        },
      });
      await db.prisma.message.create({
        data: {
          id: newId("msg"),
          sessionId: s.id,
          agentId,
          organizationId: orgId,
          projectId: project,
          role: "user",
          status: "completed",
          accessKeyId: key.key_id,
          createdAt: new Date(s.at),
        },
      });
    }
    await db.prisma.run.create({
      data: {
        id: newId("run"),
        organizationId: orgId,
        projectId: project,
        agentId: otherAgentId,
        inputs: {},
        definition: {},
        accessKeyId: key.key_id,
        createdAt: new Date(at - 2 * HOUR),
      },
    });
    const preview = await keyUsagePreview({ organizationId: orgId, keyId: key.key_id });
    expect(preview).toEqual({
      key_id: key.key_id,
      requests_24h: { count: 2, capped: false },
      requests_7d: { count: 3, capped: false },
      last_request_at: new Date(at - HOUR).toISOString(),
      agents: [
        { agent_id: agentId, name: "a" },
        { agent_id: otherAgentId, name: "b" },
      ],
      user_ids: ["alice", "bob"],
      more_user_ids: false,
      sessions_started: { count: 3, capped: false },
      runs_started: { count: 1, capped: false },
    });
    await expect(keyUsagePreview({ organizationId: otherOrgId, keyId: key.key_id })).rejects.toMatchObject({
      code: "access_key_not_found",
    });

    // Past the cap the count stops at 10,000 and says so.
    await db.sql.query(
      `INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, access_key_id, created_at)
       SELECT 'msg_cap' || g, $1, $2, $3, $4, 'user', 'completed', $5, now()::timestamp(3) - interval '1 minute'
       FROM generate_series(1, 10001) g`,
      [sessions[0]!.id, agentId, orgId, project, key.key_id],
    );
    const capped = await keyUsagePreview({ organizationId: orgId, keyId: key.key_id });
    expect(capped.requests_24h).toEqual({ count: 10_000, capped: true });
  });
});
