// Organizations, users, memberships and user tokens: used by the admin CLI and the first start.
import { hashPassword } from "../auth/secrets";
import { createUserToken } from "../auth/user-tokens";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Role } from "../generated/prisma/enums";
import { newId } from "../ids";

export const DEFAULT_PROJECT = "default";

/** Idempotent: the same org and email give the same ids; every call issues a fresh token. */
export async function bootstrap(opts: { org: string; email: string; password: string }) {
  const db = await prisma();
  const org =
    (await db.organization.findUnique({ where: { name: opts.org } })) ??
    (await db.organization.create({ data: { id: newId("org"), name: opts.org } }));
  const project =
    (await db.project.findFirst({ where: { organizationId: org.id }, orderBy: { createdAt: "asc" } })) ??
    (await db.project.create({ data: { id: newId("proj"), organizationId: org.id, name: DEFAULT_PROJECT } }));
  const user = await ensureUser({ organizationId: org.id, email: opts.email, password: opts.password, role: "admin" });
  const token = await createUserToken({ userId: user.id, name: "bootstrap" });
  return { organization_id: org.id, project_id: project.id, user_id: user.id, user_token: token.token };
}

/** Creates the user if new (an existing user's password is left alone) and sets the membership. */
export async function ensureUser(opts: {
  organizationId: string;
  email: string;
  password?: string;
  role: Role;
  name?: string;
}) {
  const db = await prisma();
  const email = opts.email.trim().toLowerCase();
  let user = await db.user.findUnique({ where: { email } });
  if (!user) {
    if (!opts.password || opts.password.length < 8) {
      throw new ApiError("invalid_request", "A new user needs a password of at least 8 characters.");
    }
    user = await db.user.create({
      data: { id: newId("usr"), email, name: opts.name, passwordHash: await hashPassword(opts.password) },
    });
  }
  await db.membership.upsert({
    where: { organizationId_userId: { organizationId: opts.organizationId, userId: user.id } },
    create: { id: newId("mem"), organizationId: opts.organizationId, userId: user.id, role: opts.role },
    update: { role: opts.role },
  });
  return user;
}

export async function findOrganization(idOrName: string) {
  const db = await prisma();
  const org = await db.organization.findFirst({ where: { OR: [{ id: idOrName }, { name: idOrName }] } });
  if (!org) throw new ApiError("organization_not_found", `No organization ${idOrName}.`);
  return org;
}

export async function findUserByEmail(email: string) {
  const db = await prisma();
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw new ApiError("not_found", `No user ${email}.`);
  return user;
}
