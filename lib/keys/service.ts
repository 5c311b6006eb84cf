// Access Keys: mint (raw key returned once), list (never secrets), revoke (soft, kept for audit).
import { evictKey } from "../auth/access-keys";
import type { z } from "zod";
import { generateSecret } from "../auth/secrets";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { AccessKey } from "../generated/prisma/client";
import { newId } from "../ids";
import { audit, type Actor } from "../audit";
import type { MintKeyBody, AccessKeyRecord, MintedAccessKey } from "./schemas";
import { afterCursor, pageOf } from "../pagination";

export function keyRecord(k: AccessKey) {
  return {
    key_id: k.id,
    organization_id: k.organizationId,
    name: k.name,
    start: k.start,
    permissions: k.permissions,
    /** The key's own limit of requests a minute; null: the service default (RATE_LIMIT_PER_MINUTE). */
    rate_limit_per_minute: k.rateLimitPerMinute,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

export async function mintKey(opts: {
  organizationId: string;
  input: MintKeyBody;
  actor: Actor;
}): Promise<z.output<typeof MintedAccessKey>> {
  const secret = generateSecret("ak");
  const db = await prisma();
  const row = await db.accessKey.create({
    data: {
      id: newId("key"),
      organizationId: opts.organizationId,
      name: opts.input.name,
      keyHash: secret.hash,
      start: secret.start,
      permissions: [...new Set(opts.input.permissions)],
      rateLimitPerMinute: opts.input.rate_limit_per_minute ?? null,
      createdByUserId: opts.actor.type === "user" ? opts.actor.id : undefined,
    },
  });
  await audit({
    organizationId: opts.organizationId,
    actor: opts.actor,
    action: "access_key.created",
    targetType: "access_key",
    targetId: row.id,
    data: {
      name: row.name,
      ...(row.rateLimitPerMinute !== null ? { rate_limit_per_minute: row.rateLimitPerMinute } : {}),
    },
  });
  return { ...keyRecord(row), key: secret.raw };
}

/** Every key of the organization, newest first (the console's list). */
export async function listKeys(opts: { organizationId: string }) {
  const db = await prisma();
  const rows = await db.accessKey.findMany({
    where: { organizationId: opts.organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(keyRecord);
}

/** The management API's list: a page of keys, newest first, after `cursor` (docs/api.md, Paging). */
export async function listKeyPage(opts: { organizationId: string; limit: number; cursor?: string }) {
  const db = await prisma();
  const rows = await db.accessKey.findMany({
    where: { AND: [{ organizationId: opts.organizationId }, afterCursor("createdAt", opts.cursor)] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (k) => k.createdAt);
  return { access_keys: page.rows.map(keyRecord), next_cursor: page.next_cursor };
}

export async function revokeKey(opts: {
  organizationId: string;
  keyId: string;
  actor: Actor;
  /** More details for the audit event (a bulk action names itself: `bulk_action_id`). */
  auditData?: Record<string, string>;
}): Promise<z.output<typeof AccessKeyRecord>> {
  const db = await prisma();
  const row = await db.accessKey.findFirst({ where: { id: opts.keyId, organizationId: opts.organizationId } });
  if (!row) throw new ApiError("access_key_not_found", "Access Key not found.");
  if (row.revokedAt) return keyRecord(row); // idempotent
  const revoked = await db.accessKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
  evictKey(row.keyHash);
  await audit({
    organizationId: opts.organizationId,
    actor: opts.actor,
    action: "access_key.revoked",
    targetType: "access_key",
    targetId: row.id,
    data: { name: row.name, ...opts.auditData },
  });
  return keyRecord(revoked);
}
