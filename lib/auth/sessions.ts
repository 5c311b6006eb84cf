// Console sessions on the server. Auth.js's session is a JWT (its credentials provider works only
// with JWTs), which alone cannot be revoked: each sign-in also stores a row whose id the token
// carries, every request checks it, and signing out deletes it, so a copy of the cookie is worth
// nothing afterwards. A session lasts 12 hours from sign-in, whatever the token says.
import { prisma } from "../db";
import { newId } from "../ids";

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** Stores a new session of the user and returns its id (for the token). */
export async function startSession(opts: { userId: string; now?: Date }): Promise<string> {
  const db = await prisma();
  const now = opts.now ?? new Date();
  // Expired rows are of no use to anyone: dropped as sessions start (indexed on expires_at).
  await db.consoleSession.deleteMany({ where: { expiresAt: { lte: now } } });
  const id = newId("dses");
  await db.consoleSession.create({
    data: { id, userId: opts.userId, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) },
  });
  return id;
}

/**
 * The user of a live session (not signed out, not expired), with their memberships and
 * organizations; null otherwise. The session is a condition of the user's own query, so checking it
 * costs no extra round trip on a request.
 */
export async function sessionUser(opts: { sessionId: string; userId: string; now?: Date }) {
  const db = await prisma();
  return db.user.findFirst({
    where: {
      id: opts.userId,
      sessions: { some: { id: opts.sessionId, expiresAt: { gt: opts.now ?? new Date() } } },
    },
    include: {
      memberships: { include: { organization: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
  });
}

export async function endSession(sessionId: string) {
  const db = await prisma();
  await db.consoleSession.deleteMany({ where: { id: sessionId } });
}

/** "Sign out everywhere": every stored session of the user ends. */
export async function endAllSessions(userId: string) {
  const db = await prisma();
  await db.consoleSession.deleteMany({ where: { userId } });
}
