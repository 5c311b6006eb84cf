// Members of an organization (console /members, .../organizations/{org_id}/members): list, change
// role, remove. People join through
// invitations (./invitations.ts). A user may belong to several organizations; an organization
// always keeps at least one admin.
import { audit, type Actor } from "../audit";
import type { z } from "zod";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Membership, User } from "../generated/prisma/client";
import type { Role } from "../generated/prisma/enums";
import { afterCursor, pageOf } from "../pagination";
import type { MemberList, MemberRecord, RemovedMember } from "./schemas";

export function memberRecord(m: Membership & { user: User }) {
  return {
    user_id: m.userId,
    email: m.user.email,
    name: m.user.name ?? null,
    role: m.role,
    joined_at: m.createdAt.toISOString(),
  };
}

const memberNotFound = () => new ApiError("member_not_found", "No such member in this organization.");

/** The members, longest-standing first, a page at a time. */
export async function listMembers(opts: {
  organizationId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof MemberList>> {
  const db = await prisma();
  const rows = await db.membership.findMany({
    where: { AND: [{ organizationId: opts.organizationId }, afterCursor("createdAt", opts.cursor, "asc")] },
    include: { user: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (m) => m.createdAt);
  return { members: page.rows.map(memberRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}

/** Refuses a change that would leave the organization without an admin. */
async function assertAnotherAdmin(organizationId: string, userId: string) {
  const db = await prisma();
  const others = await db.membership.count({ where: { organizationId, role: "admin", userId: { not: userId } } });
  if (others === 0) {
    throw new ApiError("last_admin", "An organization needs at least one admin; make someone else admin first.");
  }
}

async function loadMember(organizationId: string, userId: string) {
  const db = await prisma();
  const m = await db.membership.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    include: { user: true },
  });
  if (!m) throw memberNotFound();
  return m;
}

export async function changeRole(opts: {
  organizationId: string;
  userId: string;
  role: Role;
  actor: Actor;
}): Promise<z.output<typeof MemberRecord>> {
  const current = await loadMember(opts.organizationId, opts.userId);
  if (current.role === opts.role) return memberRecord(current);
  if (current.role === "admin") await assertAnotherAdmin(opts.organizationId, opts.userId);
  const db = await prisma();
  const updated = await db.membership.update({
    where: { id: current.id },
    data: { role: opts.role },
    include: { user: true },
  });
  await audit({
    organizationId: opts.organizationId,
    actor: opts.actor,
    action: "member.role_changed",
    targetType: "user",
    targetId: opts.userId,
    data: { email: current.user.email, from: current.role, to: opts.role },
  });
  return memberRecord(updated);
}

export async function removeMember(opts: {
  organizationId: string;
  userId: string;
  actor: Actor;
}): Promise<z.output<typeof RemovedMember>> {
  const current = await loadMember(opts.organizationId, opts.userId);
  if (current.role === "admin") await assertAnotherAdmin(opts.organizationId, opts.userId);
  const db = await prisma();
  // Two removals of one member may race: the one that finds nothing left to delete answers 404.
  const { count } = await db.membership.deleteMany({ where: { id: current.id } });
  if (count === 0) throw memberNotFound();
  await audit({
    organizationId: opts.organizationId,
    actor: opts.actor,
    action: "member.removed",
    targetType: "user",
    targetId: opts.userId,
    data: { email: current.user.email, role: current.role },
  });
  return { user_id: opts.userId, removed: true };
}
