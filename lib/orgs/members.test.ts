import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit";
import { newId } from "../ids";
import { openTestDatabase } from "../../test-support/db";
import { removeMember } from "./members";

let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.dispose();
});

describe("members", () => {
  it("two removals of one member at once: one removes it, the other answers member_not_found (no 500)", async () => {
    // Found by the route fuzzing: the loser's delete found no row and failed as an internal error.
    const organizationId = newId("org");
    await db.prisma.organization.create({ data: { id: organizationId, name: `members-${organizationId}` } });
    const member = async (role: "admin" | "support") => {
      const userId = newId("usr");
      await db.prisma.user.create({ data: { id: userId, email: `${userId}@example.com`, passwordHash: "x" } });
      await db.prisma.membership.create({ data: { id: newId("mem"), organizationId, userId, role } });
      return userId;
    };
    await member("admin");
    const target = await member("support");
    const outcomes = await Promise.allSettled([
      removeMember({ organizationId, userId: target, actor: systemActor("test") }),
      removeMember({ organizationId, userId: target, actor: systemActor("test") }),
    ]);
    const fulfilled = outcomes.filter((o) => o.status === "fulfilled");
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    // Whether the second finds the row gone at its lookup or at its delete, the answer is the same.
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toMatchObject({ code: "member_not_found" });
    expect(await db.prisma.membership.count({ where: { organizationId, userId: target } })).toBe(0);
  });
});
