import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { prisma } from "../db";
import { resetEnvCache } from "../env";
import { bootstrap } from "../orgs/service";
import { openTestDatabase } from "../../test-support/db";
import { backoffMs, MAX_BACKOFF_MS, signedHeaders } from "./deliver";
import { decryptSecret, deriveKey, encryptSecret, newSigningSecret } from "./secret";
import {
  enqueueCallback,
  getDelivery,
  listDeliveries,
  redeliver,
  rotateSigningSecret,
  signingSecretFor,
  signingSecretInfo,
} from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgA: string;
let orgB: string;
const actor = { type: "system" as const, label: "test" };

beforeAll(async () => {
  // The signing secrets are encrypted with a key derived from the auth secret: a fixed one here.
  process.env.AUTH_SECRET = "callbacks-test-auth-secret-0123456789";
  resetEnvCache();
  db = await openTestDatabase();
  orgA = (await bootstrap({ org: "callbacks-a", email: "cb-a@example.com", password: "password-1" })).organization_id;
  orgB = (await bootstrap({ org: "callbacks-b", email: "cb-b@example.com", password: "password-1" })).organization_id;
});
afterAll(() => db.dispose());

describe("signing", () => {
  it("signs so that the standardwebhooks package verifies the body, and refuses a changed body", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "message.completed", data: { message_id: "msg_1" } });
    const headers = signedHeaders({ id: "dlv_1", body, secret, at: new Date() });
    expect(headers["webhook-id"]).toBe("dlv_1");
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });
});

describe("backoff", () => {
  it("doubles from the base, jitters by at most 20% and is capped", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, 10_000, mid))).toEqual([10_000, 20_000, 40_000, 80_000, 160_000]);
    expect(backoffMs(3, 10_000, () => 0)).toBe(32_000);
    expect(backoffMs(3, 10_000, () => 0.999999)).toBe(48_000);
    expect(backoffMs(40, 10_000, () => 0.999999)).toBe(MAX_BACKOFF_MS);
  });
});

describe("secret at rest", () => {
  it("round-trips, and fails with another organization's binding or another key", () => {
    const secret = newSigningSecret();
    const key = deriveKey("master-secret-of-the-service-000000");
    const stored = encryptSecret(secret, "org_a", key);
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(stored, "org_a", key)).toBe(secret);
    expect(() => decryptSecret(stored, "org_b", key)).toThrow();
    expect(() => decryptSecret(stored, "org_a", deriveKey("another-master-secret-0000000000000"))).toThrow();
  });

  it("rotation shows the secret once, stores it encrypted, and the new one signs from then on", async () => {
    expect(await signingSecretInfo(orgA)).toEqual({ configured: false, created_at: null, hint: null });
    const first = await rotateSigningSecret(orgA, actor);
    const second = await rotateSigningSecret(orgA, actor);
    expect(second.secret).not.toBe(first.secret);
    expect(await signingSecretFor(orgA)).toBe(second.secret);
    const info = await signingSecretInfo(orgA);
    expect(info).toMatchObject({ configured: true, hint: second.secret.slice(-4) });
    const rows = await db.sql.query<Record<string, unknown>>(`SELECT * FROM webhook_secrets`);
    expect(JSON.stringify(rows)).not.toContain(second.secret.slice(6));
    const audited = await (
      await prisma()
    ).auditEvent.findMany({
      where: { organizationId: orgA, targetType: "webhook_secret" },
      orderBy: { createdAt: "asc" },
    });
    expect(audited.map((e) => e.action)).toEqual(["webhook_secret.created", "webhook_secret.rotated"]);
    expect(JSON.stringify(audited)).not.toContain(second.secret);
  });
});

describe("the delivery log", () => {
  it("is scoped to its organization: another organization gets 404 and an empty list", async () => {
    const client = await prisma();
    const agent = await client.agent.findFirst({ where: { organizationId: orgA } });
    const agentId = agent?.id ?? "agt_none";
    const id = await client.$transaction((tx) =>
      enqueueCallback(tx, {
        organizationId: orgA,
        agentId,
        subjectId: "msg_x",
        event: "message.completed",
        url: "https://example.com/hook",
        data: { message_id: "msg_x" },
      }),
    );
    const detail = await getDelivery(orgA, id);
    expect(detail).toMatchObject({ id, status: "pending", attempts: [], event: "message.completed" });
    expect(JSON.parse(detail.request.body)).toMatchObject({ type: "message.completed", data: { message_id: "msg_x" } });
    expect(detail.request.headers["webhook-id"]).toBe(id);

    await expect(getDelivery(orgB, id)).rejects.toMatchObject({ code: "delivery_not_found", status: 404 });
    await expect(redeliver(orgB, id, actor)).rejects.toMatchObject({ code: "delivery_not_found" });
    expect((await listDeliveries(orgB)).deliveries).toEqual([]);
    expect((await listDeliveries(orgA)).deliveries.map((d) => d.id)).toContain(id);
  });
});
