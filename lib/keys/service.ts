// Access Keys: mint (raw key returned once), list (never secrets), change (never the secret),
// roll (a successor, the old key kept for a grace period), revoke (soft, kept for audit), and the
// usage preview of what a key is used for. Expiry and the end of a roll's grace are enforced at
// verification (lib/auth/access-keys.ts); the key sweep only writes down what already holds.
import { evictKey } from "../auth/access-keys";
import type { z } from "zod";
import { generateSecret } from "../auth/secrets";
import { now } from "../clock";
import { prisma } from "../db";
import { ApiError } from "../errors";
import { Prisma as P, type AccessKey } from "../generated/prisma/client";
import { newId } from "../ids";
import { audit, systemActor, type Actor } from "../audit";
import { fieldSentence } from "../validation-messages";
import {
  MAX_KEY_LIFETIME_MS,
  PREVIEW_COUNT_CAP,
  PREVIEW_USER_IDS,
  type MintKeyBody,
  type AccessKeyRecord,
  type KeyUsagePreview,
  type MintedAccessKey,
  type RollKeyBody,
  type UpdateKeyBody,
} from "./schemas";
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
    expires_at: k.expiresAt?.toISOString() ?? null,
    agent_ids: k.agentIds?.length ? k.agentIds : null,
    revoke_at: k.revokeAt?.toISOString() ?? null,
    rolled_to_key_id: k.rolledToId,
    rolled_from_key_id: k.rolledFromId,
  };
}

const invalidField = (field: string, message: string) =>
  new ApiError("invalid_request", `Invalid body: ${fieldSentence(field, message)}`, { fields: [{ field, message }] });

/** An expiry as given (RFC 3339), checked against now: in the future, at most 5 years away. */
function expiryOf(value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = new Date(value);
  const t = now().getTime();
  if (at.getTime() <= t) throw invalidField("expires_at", "must be in the future");
  if (at.getTime() > t + MAX_KEY_LIFETIME_MS) throw invalidField("expires_at", "must be at most 5 years away");
  return at;
}

/** A scope as given: each agent must be one of the organization's (else 400, naming none of the others). */
async function scopeOf(organizationId: string, agentIds: string[] | null | undefined): Promise<string[] | undefined> {
  if (agentIds === undefined) return undefined;
  if (agentIds === null) return [];
  const unique = [...new Set(agentIds)];
  const db = await prisma();
  const found = await db.agent.findMany({ where: { organizationId, id: { in: unique } }, select: { id: true } });
  const known = new Set(found.map((a) => a.id));
  const missing = unique.find((id) => !known.has(id));
  if (missing) throw invalidField("agent_ids", `no agent ${missing} in this organization`);
  return unique;
}

async function findKey(organizationId: string, keyId: string): Promise<AccessKey> {
  const db = await prisma();
  const row = await db.accessKey.findFirst({ where: { id: keyId, organizationId } });
  if (!row) throw new ApiError("access_key_not_found", "Access Key not found.");
  return row;
}

export async function mintKey(opts: {
  organizationId: string;
  input: MintKeyBody;
  actor: Actor;
}): Promise<z.output<typeof MintedAccessKey>> {
  const expiresAt = expiryOf(opts.input.expires_at);
  const agentIds = await scopeOf(opts.organizationId, opts.input.agent_ids);
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
      expiresAt: expiresAt ?? null,
      agentIds: agentIds ?? [],
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
      ...(row.expiresAt ? { expires_at: row.expiresAt.toISOString() } : {}),
      ...(row.agentIds.length ? { agent_ids: row.agentIds } : {}),
    },
  });
  return { ...keyRecord(row), key: secret.raw };
}

/** One key (the console's key page). */
export async function getKey(opts: { organizationId: string; keyId: string }) {
  return keyRecord(await findKey(opts.organizationId, opts.keyId));
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
  return { access_keys: page.rows.map(keyRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}

export async function revokeKey(opts: {
  organizationId: string;
  keyId: string;
  actor: Actor;
  /** More details for the audit event (a bulk action names itself: `bulk_action_id`). */
  auditData?: Record<string, string>;
}): Promise<z.output<typeof AccessKeyRecord>> {
  const db = await prisma();
  const row = await findKey(opts.organizationId, opts.keyId);
  if (row.revokedAt) return keyRecord(row); // idempotent
  const revoked = await db.accessKey.update({ where: { id: row.id }, data: { revokedAt: now() } });
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

/** A revoked or already rolled key can be neither rolled nor changed: 409 with the reason's code. */
function assertLive(row: AccessKey, doing: string) {
  if (row.revokedAt) throw new ApiError("access_key_revoked", `This Access Key is revoked: it cannot be ${doing}.`);
  assertNotExpired(row, doing);
  if (row.rolledToId) {
    throw new ApiError(
      "access_key_rolled",
      `This Access Key was already rolled to ${row.rolledToId}: it cannot be ${doing}; use its successor.`,
      { rolled_to_key_id: row.rolledToId },
    );
  }
}

/**
 * An expired key is over, as a revoked one is: it is never rolled (a successor would outlive the
 * expiry an admin chose) and its expiry never changes (docs/api.md, Access Keys). Mint a new key.
 */
function assertNotExpired(row: AccessKey, doing: string) {
  if (row.expiresAt && row.expiresAt <= now()) {
    throw new ApiError(
      "access_key_expired_for_good",
      `This Access Key expired at ${row.expiresAt.toISOString()}: it cannot be ${doing}; mint a new key.`,
      { expired_at: row.expiresAt.toISOString() },
    );
  }
}

/**
 * Rolls a key: a successor with the same name, permissions, limit, scope and expiry, shown once;
 * the old key works until the end of the grace period (`revoke_at`, enforced at verification), or
 * is revoked at once when the grace is 0.
 */
export async function rollKey(opts: {
  organizationId: string;
  keyId: string;
  input: RollKeyBody;
  actor: Actor;
}): Promise<z.output<typeof MintedAccessKey>> {
  const old = await findKey(opts.organizationId, opts.keyId);
  assertLive(old, "rolled");
  const at = now();
  const grace = opts.input.grace_period_seconds;
  const secret = generateSecret("ak");
  const successorId = newId("key");
  const db = await prisma();
  const successor = await db.$transaction(async (tx) => {
    const created = await tx.accessKey.create({
      data: {
        id: successorId,
        organizationId: old.organizationId,
        name: old.name,
        keyHash: secret.hash,
        start: secret.start,
        permissions: old.permissions,
        rateLimitPerMinute: old.rateLimitPerMinute,
        expiresAt: old.expiresAt,
        agentIds: old.agentIds,
        rolledFromId: old.id,
        createdByUserId: opts.actor.type === "user" ? opts.actor.id : undefined,
      },
    });
    // Conditional: of two rolls at once, one wins; the other finds the key rolled.
    const moved = await tx.accessKey.updateMany({
      where: { id: old.id, rolledToId: null, revokedAt: null },
      data:
        grace === 0
          ? { rolledToId: successorId, revokedAt: at }
          : { rolledToId: successorId, revokeAt: new Date(at.getTime() + grace * 1000) },
    });
    if (moved.count !== 1) throw new ApiError("access_key_rolled", "This Access Key was already rolled or revoked.");
    await audit({
      tx,
      organizationId: old.organizationId,
      actor: opts.actor,
      action: "access_key.rolled",
      targetType: "access_key",
      targetId: old.id,
      data: {
        name: old.name,
        rolled_to_key_id: successorId,
        grace_period_seconds: grace,
        revoke_at: new Date(at.getTime() + grace * 1000).toISOString(),
      },
    });
    await audit({
      tx,
      organizationId: old.organizationId,
      actor: opts.actor,
      action: "access_key.created",
      targetType: "access_key",
      targetId: successorId,
      data: { name: old.name, rolled_from_key_id: old.id },
    });
    return created;
  });
  evictKey(old.keyHash);
  return { ...keyRecord(successor), key: secret.raw };
}

/** Changes a key's name, limit, scope or expiry (never its secret); the audit row holds before and after. */
export async function updateKey(opts: {
  organizationId: string;
  keyId: string;
  input: UpdateKeyBody;
  actor: Actor;
}): Promise<z.output<typeof AccessKeyRecord>> {
  const row = await findKey(opts.organizationId, opts.keyId);
  if (row.revokedAt) throw new ApiError("access_key_revoked", "This Access Key is revoked: it cannot be changed.");
  const { input } = opts;
  if (input.expires_at !== undefined) assertNotExpired(row, "given another expiry");
  const expiresAt = expiryOf(input.expires_at);
  const agentIds = await scopeOf(opts.organizationId, input.agent_ids);
  const data: P.AccessKeyUpdateInput = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.rate_limit_per_minute !== undefined ? { rateLimitPerMinute: input.rate_limit_per_minute } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(agentIds !== undefined ? { agentIds } : {}),
  };
  const db = await prisma();
  const updated = await db.accessKey.update({ where: { id: row.id }, data });
  evictKey(row.keyHash);
  const before = keyRecord(row) as Record<string, P.InputJsonValue | null>;
  const after = keyRecord(updated) as Record<string, P.InputJsonValue | null>;
  const fields = ["name", "rate_limit_per_minute", "expires_at", "agent_ids"].filter(
    (f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]),
  );
  if (fields.length) {
    await audit({
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "access_key.updated",
      targetType: "access_key",
      targetId: row.id,
      data: {
        name: updated.name,
        before: Object.fromEntries(fields.map((f) => [f, before[f]])),
        after: Object.fromEntries(fields.map((f) => [f, after[f]])),
      },
    });
  }
  return keyRecord(updated);
}

/**
 * The worker's key sweep: rolled keys whose grace has ended are revoked (at their `revoke_at`, the
 * instant verification began refusing them), each with an audit row by the system. Returns the ids.
 */
export async function revokeRolledKeys(limit = 100): Promise<string[]> {
  const db = await prisma();
  const due = await db.accessKey.findMany({
    where: { revokedAt: null, revokeAt: { lte: now() } },
    orderBy: [{ revokeAt: "asc" }, { id: "asc" }],
    take: limit,
  });
  const done: string[] = [];
  for (const k of due) {
    const moved = await db.accessKey.updateMany({
      where: { id: k.id, revokedAt: null },
      data: { revokedAt: k.revokeAt },
    });
    if (moved.count !== 1) continue; // another worker got there first
    evictKey(k.keyHash);
    await audit({
      organizationId: k.organizationId,
      actor: systemActor("key sweep"),
      action: "access_key.revoked",
      targetType: "access_key",
      targetId: k.id,
      data: { name: k.name, reason: "roll grace period ended", rolled_to_key_id: k.rolledToId },
    });
    done.push(k.id);
  }
  return done;
}

/** A count that reads at most PREVIEW_COUNT_CAP + 1 index entries. */
const capped = (n: number) => ({ count: Math.min(n, PREVIEW_COUNT_CAP), capped: n > PREVIEW_COUNT_CAP });
const LIMIT = PREVIEW_COUNT_CAP + 1;

/**
 * What a key is used for, so an admin sees what revoking it breaks: requests (user messages and runs
 * it triggered) in 24 hours and 7 days, its last request, the agents, end users, sessions and runs
 * it started. Every query walks the (access_key_id, created_at) indexes and reads a bounded number
 * of rows: counts stop at 10,000 ("10,000+").
 */
export async function keyUsagePreview(opts: {
  organizationId: string;
  keyId: string;
}): Promise<z.output<typeof KeyUsagePreview>> {
  const key = await findKey(opts.organizationId, opts.keyId);
  const db = await prisma();
  const at = now();
  const day = new Date(at.getTime() - 86_400_000);
  const week = new Date(at.getTime() - 7 * 86_400_000);
  const id = key.id;
  const count = async (table: "messages" | "runs" | "sessions", since: Date | null) => {
    const sinceSql = since ? P.sql`AND created_at >= ${since}::timestamp(3)` : P.empty;
    const from = P.raw(table);
    const role = table === "messages" ? P.sql`AND role = 'user'` : P.empty;
    const [row] = await db.$queryRaw<{ n: bigint | number }[]>(P.sql`
      SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE access_key_id = ${id} ${role} ${sinceSql} LIMIT ${LIMIT}) t`);
    return Number(row?.n ?? 0);
  };
  const last = async (table: "messages" | "runs") => {
    const from = P.raw(table);
    const [row] = await db.$queryRaw<{ created_at: Date }[]>(P.sql`
      SELECT created_at FROM ${from} WHERE access_key_id = ${id} ORDER BY created_at DESC LIMIT 1`);
    return row?.created_at ?? null;
  };
  const [msgDay, runDay, msgWeek, runWeek, sessions, runs, lastMsg, lastRun, agentRows, userRows] = await Promise.all([
    count("messages", day),
    count("runs", day),
    count("messages", week),
    count("runs", week),
    count("sessions", null),
    count("runs", null),
    last("messages"),
    last("runs"),
    db.$queryRaw<{ agent_id: string }[]>(P.sql`
      SELECT DISTINCT agent_id FROM (
        (SELECT agent_id FROM messages WHERE access_key_id = ${id} AND created_at >= ${week}::timestamp(3)
          ORDER BY created_at DESC LIMIT ${LIMIT})
        UNION ALL
        (SELECT agent_id FROM runs WHERE access_key_id = ${id} AND created_at >= ${week}::timestamp(3)
          ORDER BY created_at DESC LIMIT ${LIMIT})) t
      LIMIT 100`),
    db.$queryRaw<{ user_id: string }[]>(P.sql`
      SELECT DISTINCT user_id FROM (
        SELECT user_id FROM sessions WHERE access_key_id = ${id} ORDER BY created_at DESC LIMIT ${LIMIT}) t
      WHERE user_id <> '' ORDER BY user_id LIMIT ${PREVIEW_USER_IDS + 1}`),
  ]);
  const agents = await db.agent.findMany({
    where: { organizationId: opts.organizationId, id: { in: agentRows.map((a) => a.agent_id) } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const lastAt = [lastMsg, lastRun].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    key_id: key.id,
    requests_24h: capped(msgDay + runDay),
    requests_7d: capped(msgWeek + runWeek),
    last_request_at: lastAt ? new Date(lastAt).toISOString() : null,
    agents: agents.map((a) => ({ agent_id: a.id, name: a.name })),
    user_ids: userRows.slice(0, PREVIEW_USER_IDS).map((u) => u.user_id),
    more_user_ids: userRows.length > PREVIEW_USER_IDS,
    sessions_started: capped(sessions),
    runs_started: capped(runs),
  };
}
