import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../ids";
import { openTestDatabase } from "../../test-support/db";
import { endAllSessions, endSession, SESSION_MAX_AGE_SECONDS, sessionUser, startSession } from "./sessions";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let organizationId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  organizationId = newId("org");
  await db.prisma.organization.create({ data: { id: organizationId, name: `sessions-${organizationId}` } });
});
afterAll(async () => {
  await db.dispose();
});

async function member() {
  const userId = newId("usr");
  await db.prisma.user.create({ data: { id: userId, email: `${userId}@example.com`, passwordHash: "x" } });
  await db.prisma.membership.create({ data: { id: newId("mem"), organizationId, userId, role: "support" } });
  return userId;
}

const HOUR = 3600_000;

describe("console sessions", () => {
  it("a started session gives its user with memberships, for that user only", async () => {
    const userId = await member();
    const other = await member();
    const sessionId = await startSession({ userId });
    const user = await sessionUser({ sessionId, userId });
    expect(user?.id).toBe(userId);
    expect(user?.memberships.map((m) => [m.organizationId, m.organization.name, m.role])).toEqual([
      [organizationId, `sessions-${organizationId}`, "support"],
    ]);
    expect(await sessionUser({ sessionId, userId: other })).toBeNull();
    expect(await sessionUser({ sessionId: "dses_unknown", userId })).toBeNull();
  });

  it("lasts 12 hours from sign-in", async () => {
    const userId = await member();
    const start = new Date("2030-01-01T00:00:00Z");
    const sessionId = await startSession({ userId, now: start });
    const at = (ms: number) => sessionUser({ sessionId, userId, now: new Date(start.getTime() + ms) });
    expect(SESSION_MAX_AGE_SECONDS).toBe(12 * 3600);
    expect(await at(12 * HOUR - 1)).not.toBeNull();
    expect(await at(12 * HOUR)).toBeNull();
  });

  it("ending a session ends that one; ending all ends every session of the user and no one else's", async () => {
    const userId = await member();
    const other = await member();
    const [a, b, c] = [
      await startSession({ userId }),
      await startSession({ userId }),
      await startSession({ userId: other }),
    ];
    await endSession(a);
    expect(await sessionUser({ sessionId: a, userId })).toBeNull();
    expect(await sessionUser({ sessionId: b, userId })).not.toBeNull();
    await endAllSessions(userId);
    expect(await sessionUser({ sessionId: b, userId })).toBeNull();
    expect(await sessionUser({ sessionId: c, userId: other })).not.toBeNull();
  });

  it("expired rows are deleted as new sessions start", async () => {
    const userId = await member();
    const old = await startSession({ userId, now: new Date(Date.now() - 13 * HOUR) }); // expired an hour ago
    const live = await startSession({ userId, now: new Date(Date.now() - 11 * HOUR) }); // an hour left
    expect(await db.prisma.consoleSession.count({ where: { id: { in: [old, live] } } })).toBe(2);
    await startSession({ userId: await member() });
    expect(await db.prisma.consoleSession.findUnique({ where: { id: old } })).toBeNull();
    expect(await db.prisma.consoleSession.findUnique({ where: { id: live } })).not.toBeNull();
    expect(await db.prisma.consoleSession.count({ where: { expiresAt: { lte: new Date() } } })).toBe(0);
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    "checking the session costs no statement more than reading the user with memberships alone",
    async () => {
      const userId = await member();
      const sessionId = await startSession({ userId });
      const pglite = db.pglite!;
      const query = pglite.query.bind(pglite);
      let statements = 0;
      pglite.query = ((...args: Parameters<typeof query>) => {
        statements++;
        return query(...args);
      }) as typeof pglite.query;
      try {
        const count = async (read: () => Promise<unknown>) => {
          statements = 0;
          expect(await read()).not.toBeNull();
          return statements;
        };
        const userAlone = await count(() =>
          db.prisma.user.findUnique({
            where: { id: userId },
            include: { memberships: { include: { organization: true } } },
          }),
        );
        const withSession = await count(() => sessionUser({ sessionId, userId }));
        expect(userAlone).toBeGreaterThan(0);
        expect(withSession).toBe(userAlone);
      } finally {
        pglite.query = query;
      }
    },
  );
});
