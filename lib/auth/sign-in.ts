// Console sign-in with email and password: credential checks, and the lockout of an email and
// client address pair after five failures within 15 minutes (for 15 minutes after the fifth).
// Failures are rows in the database, so every server process sees the same count. `attemptSignIn`
// is the one password check of every path (Auth.js's credentials `authorize`, which the console's
// sign-in route also goes through): lockout, failure record and audit rows live there.
import { z } from "zod";
import { audit, userActor } from "../audit";
import { prisma } from "../db";
import { newId } from "../ids";
import { hashPassword, verifyPassword } from "./secrets";

export const LOCKOUT = { failures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;

/** What a sign-in may carry; longer values are refused before any password work. */
export const SignInFields = z.object({
  email: z.string().trim().min(1, "is required").max(320),
  password: z.string().min(1, "is required").max(200),
});

let dummyHash: Promise<string> | undefined;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The user with this email and password, or null. An unknown email costs the same scrypt work. */
async function verifyCredentials(email: string, password: string) {
  const db = await prisma();
  const user = await db.user.findUnique({ where: { email: normaliseEmail(email) } });
  if (!user) {
    dummyHash ??= hashPassword("not a real password");
    await verifyPassword(password, await dummyHash);
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}

const recentFailures = (email: string, ip: string, now: Date) => ({
  email: normaliseEmail(email),
  ip,
  createdAt: { gt: new Date(now.getTime() - LOCKOUT.windowMs) },
});

/** Seconds until the pair may try again, or 0 when it is not locked out. */
async function lockedForSeconds(email: string, ip: string, now = new Date()): Promise<number> {
  const db = await prisma();
  const recent = await db.signInFailure.findMany({
    where: recentFailures(email, ip, now),
    orderBy: { createdAt: "desc" },
    take: LOCKOUT.failures,
    select: { createdAt: true },
  });
  if (recent.length < LOCKOUT.failures) return 0;
  // Refused attempts are not recorded, so the newest failure is the one that locked the pair.
  const until = recent[0]!.createdAt.getTime() + LOCKOUT.lockMs;
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/**
 * Records an attempt as a failure before its password is checked, and says how many failures of
 * the pair are recent, this one included. Counting first would let guesses sent at once all pass
 * the count before any of them is recorded; recorded first, the n-th to be written sees at least n.
 */
async function recordFailure(email: string, ip: string): Promise<{ id: string; recent: number }> {
  const db = await prisma();
  const id = newId("sif");
  await db.signInFailure.create({ data: { id, email: normaliseEmail(email), ip } });
  // Old rows are of no use to any lockout: drop them as we go.
  await db.signInFailure.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - LOCKOUT.windowMs * 2) } } });
  return { id, recent: await db.signInFailure.count({ where: recentFailures(email, ip, new Date()) }) };
}

async function clearFailures(email: string, ip: string) {
  const db = await prisma();
  await db.signInFailure.deleteMany({ where: { email: normaliseEmail(email), ip } });
}

type SignInAction = "auth.sign_in" | "auth.sign_in_failed" | "auth.sign_in_locked";

/** Sign-ins, failed sign-ins and lockouts go into the audit log of every organization the user belongs to. */
async function auditSignIn(email: string, action: SignInAction, ip: string) {
  const db = await prisma();
  const user = await db.user.findUnique({
    where: { email: normaliseEmail(email) },
    include: { memberships: { select: { organizationId: true } } },
  });
  if (!user) return; // an unknown email belongs to no organization's log
  for (const m of user.memberships) {
    await audit({
      organizationId: m.organizationId,
      actor: userActor({ userId: user.id, email: user.email }),
      action,
      targetType: "user",
      targetId: user.id,
      data: { ip },
    });
  }
}

export type SignInOutcome =
  | { outcome: "signed_in"; user: { id: string; email: string; name: string | null } }
  | { outcome: "wrong_credentials" }
  | { outcome: "locked"; retryAfterSeconds: number };

/**
 * One sign-in attempt of an email and client address pair: refused without a password check while
 * the pair is locked out (at most five passwords are checked per pair and window, even for guesses
 * sent at once); a wrong password is recorded and audited, and the one that locks the pair is
 * audited as `auth.sign_in_locked` too; the right one clears the count.
 */
export async function attemptSignIn(opts: { email: string; password: string; ip: string }): Promise<SignInOutcome> {
  const { email, password, ip } = opts;
  // At least a second: a success elsewhere may have just cleared the count.
  const lockedOut = async () => ({
    outcome: "locked" as const,
    retryAfterSeconds: Math.max(1, await lockedForSeconds(email, ip)),
  });
  if (await lockedForSeconds(email, ip)) return lockedOut();
  const attempt = await recordFailure(email, ip);
  if (attempt.recent > LOCKOUT.failures) {
    // Others got there first (guesses sent at once): refused unchecked, and not a failure.
    await (await prisma()).signInFailure.deleteMany({ where: { id: attempt.id } });
    return lockedOut();
  }
  const user = await verifyCredentials(email, password);
  if (user) {
    await clearFailures(email, ip);
    await auditSignIn(email, "auth.sign_in", ip);
    return { outcome: "signed_in", user: { id: user.id, email: user.email, name: user.name } };
  }
  await auditSignIn(email, "auth.sign_in_failed", ip);
  if (attempt.recent < LOCKOUT.failures) return { outcome: "wrong_credentials" };
  await auditSignIn(email, "auth.sign_in_locked", ip);
  return lockedOut();
}
