// User tokens authenticate the management API (never an Access Key: docs/api.md, Authentication).
import { ApiError } from "../errors";
import { prisma } from "../db";
import type { Role } from "../generated/prisma/enums";
import { USER_TOKEN_RE, generateSecret, sha256 } from "./secrets";
import { newId } from "../ids";

export interface UserPrincipal {
  userId: string;
  email: string;
  name: string | null;
  tokenId: string;
}

export async function verifyUserToken(raw: string | null): Promise<UserPrincipal> {
  const unauthorized = new ApiError("unauthorized", "Missing or invalid user token.");
  if (raw?.startsWith("ak_")) {
    throw new ApiError(
      "unauthorized",
      "This is an Access Key (ak_...): Access Keys are for the public API (/api/agents/...). " +
        "The management API takes a user token: Authorization: Bearer ut_...",
    );
  }
  if (!raw || !USER_TOKEN_RE.test(raw)) throw unauthorized;
  const hash = sha256(raw);
  const db = await prisma();
  // Looked up by the token's hash, never by the token: the found row's hash is equal by construction
  // (no second comparison), and the lookup's timing tells nothing about the raw token.
  const row = await db.userToken.findUnique({ where: { tokenHash: hash }, include: { user: true } });
  if (!row || row.revokedAt) throw unauthorized;
  return { userId: row.userId, email: row.user.email, name: row.user.name, tokenId: row.id };
}

/** The caller's role in the organization; a non-member gets 404, as if the org did not exist. */
export async function membershipRole(userId: string, organizationId: string): Promise<Role> {
  const db = await prisma();
  const m = await db.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (!m) throw new ApiError("organization_not_found", "Organization not found.");
  return m.role;
}

export async function createUserToken(opts: { userId: string; name?: string }) {
  const db = await prisma();
  const secret = generateSecret("ut");
  const row = await db.userToken.create({
    data: {
      id: newId("utk"),
      userId: opts.userId,
      name: opts.name ?? "cli",
      tokenHash: secret.hash,
      start: secret.start,
    },
  });
  return { token_id: row.id, token: secret.raw };
}
