import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userActor } from "../audit";
import { sha256 } from "../auth/secrets";
import { newId } from "../ids";
import { openTestDatabase } from "../../test-support/db";
import { acceptInvitation, createInvitation, revokeInvitation } from "./invitations";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let organizationId: string;
let admin: ReturnType<typeof userActor>;

beforeAll(async () => {
  db = await openTestDatabase();
  organizationId = newId("org");
  await db.prisma.organization.create({ data: { id: organizationId, name: `invitations-${organizationId}` } });
  const userId = newId("usr");
  await db.prisma.user.create({ data: { id: userId, email: `${userId}@example.com`, passwordHash: "x" } });
  await db.prisma.membership.create({ data: { id: newId("mem"), organizationId, userId, role: "admin" } });
  admin = userActor({ userId, email: `${userId}@example.com` });
});
afterAll(async () => {
  await db.dispose();
});

const invite = (email: string) =>
  createInvitation({ organizationId, input: { email, role: "support" }, actor: admin, baseUrl: "http://dash.test" });
const tokenOf = (url: string) => url.split("/").pop()!;
const email = () => `${newId("usr").toLowerCase()}@example.com`;

describe("invitations", () => {
  it("keeps only the SHA-256 of the token, and says it was not emailed when SMTP_URL is unset", async () => {
    const made = await invite(email());
    expect(made.emailed).toBe(false);
    const token = tokenOf(made.url);
    expect(token).toMatch(/^it_[0-9A-Za-z]{43}$/);
    const row = await db.prisma.invitation.findUniqueOrThrow({ where: { id: made.invitation_id } });
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("two invitations of one email at once leave exactly one pending, the later link", async () => {
    const to = email();
    const made = await Promise.all([invite(to), invite(to), invite(to)]);
    const pending = await db.prisma.invitation.findMany({
      where: { organizationId, email: to, pendingKey: { not: null } },
    });
    expect(pending).toHaveLength(1);
    const outcomes = await Promise.allSettled(
      made.map((m) => acceptInvitation({ token: tokenOf(m.url), ip: "t1", user: null, password: "a long password" })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await db.prisma.membership.count({ where: { organizationId, user: { email: to } } })).toBe(1);
  });

  it("two acceptances of one link at once: one membership, the other invitation_expired", async () => {
    const to = email();
    const token = tokenOf((await invite(to)).url);
    const outcomes = await Promise.allSettled([
      acceptInvitation({ token, ip: "t2", user: null, password: "first password" }),
      acceptInvitation({ token, ip: "t2", user: null, password: "second password" }),
    ]);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    // Whether the loser sees the link spent or meets the account the winner made, it is told plainly.
    expect(["invitation_expired", "account_exists"]).toContain(rejected[0]!.reason.code);
    expect(await db.prisma.user.count({ where: { email: to } })).toBe(1);
    expect(await db.prisma.membership.count({ where: { organizationId, user: { email: to } } })).toBe(1);
  });

  it("an acceptance racing a revocation: exactly one of them wins", async () => {
    const made = await invite(email());
    const outcomes = await Promise.allSettled([
      acceptInvitation({ token: tokenOf(made.url), ip: "t3", user: null, password: "a long password" }),
      revokeInvitation({ organizationId, invitationId: made.invitation_id, actor: admin }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const row = await db.prisma.invitation.findUniqueOrThrow({ where: { id: made.invitation_id } });
    expect([row.acceptedAt, row.revokedAt].filter(Boolean)).toHaveLength(1);
  });
});
