import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAccessKey, clearKeyCache } from "../auth/access-keys";
import { sha256 } from "../auth/secrets";
import { openTestDatabase } from "../../test-support/db";
import { bootstrap } from "../orgs/service";
import { listKeyPage, mintKey, revokeKey } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
const actor = { type: "system" as const, label: "test" };

beforeAll(async () => {
  db = await openTestDatabase();
  orgId = (await bootstrap({ org: "keys", email: "k@example.com", password: "password-1" })).organization_id;
});
afterAll(() => db.dispose());

describe("access keys", () => {
  it("stores only the SHA-256 hash and a display start, never the raw key", async () => {
    const minted = await mintKey({
      organizationId: orgId,
      input: { name: "ci", permissions: ["agents:invoke"] },
      actor,
    });
    const rows = await db.sql.query<Record<string, unknown>>(`SELECT * FROM access_keys WHERE id = $1`, [
      minted.key_id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(sha256(minted.key));
    expect(JSON.stringify(rows[0])).not.toContain(minted.key);
    const listed = await listKeyPage({ organizationId: orgId, limit: 500 });
    expect(JSON.stringify(listed)).not.toContain(minted.key);
    expect(JSON.stringify(listed)).not.toContain(sha256(minted.key));
  });

  it("verifies a live key and refuses it once revoked (same instance: at once)", async () => {
    const minted = await mintKey({
      organizationId: orgId,
      input: { name: "rev", permissions: ["agents:invoke"] },
      actor,
    });
    const principal = await verifyAccessKey(minted.key);
    expect(principal).toMatchObject({ keyId: minted.key_id, organizationId: orgId, permissions: ["agents:invoke"] });
    const revoked = await revokeKey({ organizationId: orgId, keyId: minted.key_id, actor });
    expect(revoked.revoked_at).not.toBeNull();
    await expect(verifyAccessKey(minted.key)).rejects.toMatchObject({ code: "unauthorized" });
    const audit = await db.prisma.auditEvent.findMany({ where: { targetId: minted.key_id } });
    expect(audit.map((a) => a.action).sort()).toEqual(["access_key.created", "access_key.revoked"]);
  });

  it("writes last_used_at on use, at most once a minute", async () => {
    clearKeyCache();
    const minted = await mintKey({
      organizationId: orgId,
      input: { name: "touch", permissions: ["agents:invoke"] },
      actor,
    });
    await verifyAccessKey(minted.key);
    let row = null;
    for (let i = 0; i < 50 && !row?.lastUsedAt; i++) {
      await new Promise((r) => setTimeout(r, 20));
      row = await db.prisma.accessKey.findUnique({ where: { id: minted.key_id } });
    }
    const first = row!.lastUsedAt!;
    expect(first).toBeInstanceOf(Date);
    await verifyAccessKey(minted.key);
    await new Promise((r) => setTimeout(r, 100));
    row = await db.prisma.accessKey.findUnique({ where: { id: minted.key_id } });
    expect(row!.lastUsedAt!.getTime()).toBe(first.getTime());
  });

  it("refuses malformed and unknown keys with 401", async () => {
    for (const raw of [null, "", "ak_short", `ak_${"A".repeat(43)}`, `ut_${"A".repeat(43)}`]) {
      await expect(verifyAccessKey(raw)).rejects.toMatchObject({ code: "unauthorized", status: 401 });
    }
  });
});
