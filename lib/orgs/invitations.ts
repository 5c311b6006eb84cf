// Invitations to an organization (console /members). An admin invites an email with a role and
// gets the same answer whether or not that email has an account anywhere (no user id, no name, no
// password asked, no scrypt on one path only): membership is never given without the invited
// person's consent. The invitation is a single-use link `/invite/<token>`, shown once to the admin
// and emailed when SMTP_URL is set, valid 7 days. The invited person accepts it signed in with the
// invited email, or signed out by creating an account; an existing account's password is never set
// from an invitation. Only the token's SHA-256 is stored.
import { audit, userActor, type Actor } from "../audit";
import type { z } from "zod";
import { generateSecret, hashPassword, INVITATION_TOKEN_RE, sha256 } from "../auth/secrets";
import { normaliseEmail } from "../auth/sign-in";
import { isUniqueViolation, prisma } from "../db";
import { ApiError } from "../errors";
import type { Invitation } from "../generated/prisma/client";
import { newId } from "../ids";
import { afterCursor, pageOf } from "../pagination";
import { consumeRate } from "../keys/rate-limit";
import { sendMail } from "../mail";
import { countRateLimited } from "../metrics";
import { memberRecord } from "./members";
import type { InviteBody, CreatedInvitation, InvitationPage, RevokedInvitation } from "./schemas";

export const INVITATION_TTL_DAYS = 7;
const TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;

/**
 * Wrong invitation tokens one client address may present a minute before it gets 429. A token
 * carries 256 bits, so guessing is hopeless anyway; the limit keeps a guesser slow and visible
 * (`agent_webhook_rate_limited_total{limiter="invitation"}`).
 */
export const INVITATION_MISSES_PER_MINUTE = 10;

type Row = Invitation & { invitedBy: { email: string } | null };
const withInviter = { invitedBy: { select: { email: true } } } as const;

export function invitationRecord(i: Row) {
  return {
    invitation_id: i.id,
    email: i.email,
    role: i.role,
    invited_by: i.invitedBy?.email ?? null,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
  };
}

/** Set while an invitation may be accepted: unique, so one pending invitation per email and organization. */
const pendingKey = (organizationId: string, email: string) => `${organizationId} ${email}`;

const notFound = () => new ApiError("invitation_not_found", "No such pending invitation in this organization.");

/** Two admins inviting one email at once: the later insert meets the unique pending key; it runs again. */
async function retryUniqueViolation<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      if (!isUniqueViolation(e) || attempt === 3) throw e;
    }
  }
}

function invitationEmail(o: { organization: string; inviter: string; role: string; url: string; expiresAt: Date }) {
  return [
    `${o.inviter} invited you to join ${o.organization} on Agent Webhook Service, with the ${o.role} role.`,
    "",
    `Accept the invitation: ${o.url}`,
    "",
    `The link works once and expires on ${o.expiresAt.toUTCString()}.`,
    "If you did not expect this invitation, ignore this email.",
  ].join("\n");
}

/**
 * Invites `email` with `role`; replaces a pending invitation of the same email (its link stops
 * working). 409 conflict when the email is already a member here. The answer carries the link
 * once, and whether it was emailed.
 */
export async function createInvitation(opts: {
  organizationId: string;
  input: InviteBody;
  actor: Actor;
  baseUrl: string;
}): Promise<z.output<typeof CreatedInvitation>> {
  const { organizationId, actor } = opts;
  const { email, role } = opts.input;
  const db = await prisma();
  // One query whatever the email: whether it has an account elsewhere changes nothing here.
  const member = await db.membership.findFirst({ where: { organizationId, user: { email } }, select: { id: true } });
  if (member) throw new ApiError("conflict", `${email} is already a member of this organization.`);
  const organization = await db.organization.findUniqueOrThrow({ where: { id: organizationId } });
  const { raw, hash } = generateSecret("it");
  const key = pendingKey(organizationId, email);
  const invitation = await retryUniqueViolation(() =>
    db.$transaction(async (tx) => {
      const now = new Date();
      const replaced = await tx.invitation.findMany({ where: { pendingKey: key }, select: { id: true } });
      await tx.invitation.updateMany({
        where: { pendingKey: key },
        data: { pendingKey: null, revokedAt: now, revokedById: actor.id },
      });
      const created = await tx.invitation.create({
        data: {
          id: newId("inv"),
          organizationId,
          email,
          role,
          tokenHash: hash,
          pendingKey: key,
          invitedById: actor.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + TTL_MS),
        },
        include: withInviter,
      });
      for (const old of replaced) {
        await audit({
          tx,
          organizationId,
          actor,
          action: "invitation.revoked",
          targetType: "invitation",
          targetId: old.id,
          data: { email, replaced_by: created.id },
        });
      }
      await audit({
        tx,
        organizationId,
        actor,
        action: "invitation.created",
        targetType: "invitation",
        targetId: created.id,
        data: { email, role, expires_at: created.expiresAt.toISOString() },
      });
      return created;
    }),
  );
  const url = `${opts.baseUrl}/invite/${raw}`;
  const emailed = await sendMail({
    to: email,
    subject: `You are invited to ${organization.name}`,
    text: invitationEmail({
      organization: organization.name,
      inviter: actor.label ?? "An admin",
      role,
      url,
      expiresAt: invitation.expiresAt,
    }),
    secrets: [raw],
  });
  return { ...invitationRecord(invitation), url, emailed };
}

/** Invitations that may still be accepted, newest first. */
export async function listInvitations(opts: {
  organizationId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof InvitationPage>> {
  const db = await prisma();
  const rows = await db.invitation.findMany({
    where: {
      AND: [
        { organizationId: opts.organizationId, pendingKey: { not: null }, expiresAt: { gt: new Date() } },
        afterCursor("createdAt", opts.cursor),
      ],
    },
    include: withInviter,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (i) => i.createdAt);
  return {
    invitations: page.rows.map(invitationRecord),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

export async function revokeInvitation(opts: {
  organizationId: string;
  invitationId: string;
  actor: Actor;
}): Promise<z.output<typeof RevokedInvitation>> {
  const { organizationId, invitationId, actor } = opts;
  const db = await prisma();
  // Guarded by the pending key: of a revocation racing an acceptance, exactly one wins.
  const { count } = await db.invitation.updateMany({
    where: { id: invitationId, organizationId, pendingKey: { not: null } },
    data: { pendingKey: null, revokedAt: new Date(), revokedById: actor.id },
  });
  if (count === 0) throw notFound();
  const row = await db.invitation.findUniqueOrThrow({ where: { id: invitationId } });
  await audit({
    organizationId,
    actor,
    action: "invitation.revoked",
    targetType: "invitation",
    targetId: invitationId,
    data: { email: row.email, role: row.role },
  });
  return { invitation_id: invitationId, revoked: true };
}

/**
 * The invitation a link's token names, looked up by its hash (never by the token itself, so the
 * lookup's timing says nothing about the token; the found row's hash is equal by construction). A
 * wrong token counts against the client address: past INVITATION_MISSES_PER_MINUTE, 429.
 */
async function byToken(token: string, ip: string) {
  const hash = sha256(token);
  const db = await prisma();
  const row = INVITATION_TOKEN_RE.test(token)
    ? await db.invitation.findUnique({ where: { tokenHash: hash }, include: { organization: true, ...withInviter } })
    : null;
  if (row) return row;
  const decision = await consumeRate(`invitation-miss:${ip}`, INVITATION_MISSES_PER_MINUTE);
  if (decision && !decision.allowed) {
    countRateLimited("invitation");
    throw new ApiError("rate_limited", "Too many wrong invitation links from this address. Try again in a minute.", {
      retry_after_seconds: decision.resetSeconds,
    });
  }
  throw new ApiError(
    "invitation_not_found",
    "This invitation link is not valid. Check that it was copied whole, or ask for a new one.",
  );
}

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

function statusOf(row: Invitation, now = new Date()): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

const GONE: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation was already accepted; a link works once.",
  revoked: "This invitation was revoked, or replaced by a newer one. Ask for a new link.",
  expired: `This invitation has expired (links are valid for ${INVITATION_TTL_DAYS} days). Ask for a new one.`,
};

/** What the invitation page shows: for whom, where, which role, and whether it can still be accepted. */
export async function invitationByToken(opts: { token: string; ip: string }) {
  const row = await byToken(opts.token, opts.ip);
  const status = statusOf(row);
  return {
    organization: { organization_id: row.organizationId, name: row.organization.name },
    email: row.email,
    role: row.role,
    invited_by: row.invitedBy?.email ?? null,
    expires_at: row.expiresAt.toISOString(),
    status,
    ...(status === "pending" ? {} : { message: GONE[status] }),
  };
}

const accountExists = () =>
  new ApiError(
    "account_exists",
    "An account with this email already exists: sign in to accept the invitation. Its password is never set from an invitation.",
  );

/**
 * Accepts an invitation: signed in (`user`) with the invited email, or signed out with the
 * password (and name) of a new account for it. Makes the membership in the same transaction that
 * spends the invitation, so that a link is accepted once.
 */
export async function acceptInvitation(opts: {
  token: string;
  ip: string;
  user: { userId: string; email: string } | null;
  name?: string;
  password?: string;
}) {
  const row = await byToken(opts.token, opts.ip);
  const status = statusOf(row);
  if (status !== "pending") throw new ApiError("invitation_expired", GONE[status]);
  const db = await prisma();
  let newAccount: { name?: string; passwordHash: string } | undefined;
  if (opts.user) {
    if (normaliseEmail(opts.user.email) !== row.email) {
      throw new ApiError(
        "invitation_email_mismatch",
        `This invitation is for ${row.email}, and you are signed in as ${opts.user.email}. Sign out, then open the link again.`,
      );
    }
  } else {
    if (!opts.password) {
      throw new ApiError("invalid_request", "Invalid body: password is required to create your account", {
        fields: [{ field: "password", message: "is required to create your account" }],
      });
    }
    if (await db.user.findUnique({ where: { email: row.email }, select: { id: true } })) throw accountExists();
    newAccount = { name: opts.name || undefined, passwordHash: await hashPassword(opts.password) };
  }
  const userId = opts.user?.userId ?? newId("usr");
  try {
    return await db.$transaction(async (tx) => {
      const now = new Date();
      const spent = await tx.invitation.updateMany({
        where: { id: row.id, pendingKey: { not: null }, expiresAt: { gt: now } },
        data: { pendingKey: null, acceptedAt: now, acceptedById: userId },
      });
      if (spent.count === 0)
        throw new ApiError("invitation_expired", "This invitation was just used, revoked or expired.");
      if (newAccount) await tx.user.create({ data: { id: userId, email: row.email, ...newAccount } });
      const existing = await tx.membership.findUnique({
        where: { organizationId_userId: { organizationId: row.organizationId, userId } },
      });
      if (existing) throw new ApiError("conflict", `${row.email} is already a member of ${row.organization.name}.`);
      const membership = await tx.membership.create({
        data: { id: newId("mem"), organizationId: row.organizationId, userId, role: row.role },
        include: { user: true },
      });
      const actor = userActor({ userId, email: row.email });
      const trail = { organizationId: row.organizationId, actor, tx };
      const invitedBy = row.invitedBy?.email ?? null;
      await audit({
        ...trail,
        action: "invitation.accepted",
        targetType: "invitation",
        targetId: row.id,
        data: { email: row.email, role: row.role, account_created: Boolean(newAccount) },
      });
      await audit({
        ...trail,
        action: "member.added",
        targetType: "user",
        targetId: userId,
        data: { email: row.email, role: row.role, invitation_id: row.id, invited_by: invitedBy },
      });
      return {
        organization: { organization_id: row.organizationId, name: row.organization.name },
        member: memberRecord(membership),
        account_created: Boolean(newAccount),
      };
    });
  } catch (e) {
    // An account for the email made between the check above and this transaction.
    if (newAccount && isUniqueViolation(e)) throw accountExists();
    throw e;
  }
}
