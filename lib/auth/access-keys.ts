// Access Key verification (docs/api.md, Authentication) with a short positive cache. A revoked key is refused within
// KEY_CACHE_TTL_MS (default 2 s) on every instance sharing the database, and at once on the
// instance that revoked it. last_used_at is written at most once a minute per key.
import { now as clockNow } from "../clock";
import { env } from "../env";
import { ApiError } from "../errors";
import { prisma } from "../db";
import { ACCESS_KEY_RE, sha256 } from "./secrets";
import { processOnce } from "../process-state";

export interface KeyPrincipal {
  keyId: string;
  organizationId: string;
  name: string;
  permissions: string[];
  /** The key's own requests-a-minute limit on the public API; null: RATE_LIMIT_PER_MINUTE. */
  rateLimitPerMinute: number | null;
  /** The agents the key may reach; empty: every agent of the organization. */
  agentIds: string[];
  /** Epoch ms after which the key is refused as expired; null: never. */
  expiresAt: number | null;
  /** Epoch ms from which a rolled key is refused (the end of its grace); null: not rolled. */
  revokeAt: number | null;
}

interface CacheEntry {
  principal: KeyPrincipal | null;
  hash: string;
  expires: number;
}

const cache = processOnce("keyCache", () => new Map<string, CacheEntry>());
const touched = processOnce("keyTouched", () => new Map<string, number>());
const MAX_CACHE = 10_000;
const TOUCH_EVERY_MS = 60_000;

export function evictKey(keyHash: string) {
  cache.delete(keyHash);
}

export function clearKeyCache() {
  cache.clear();
  touched.clear();
}

const unauthorized = () => new ApiError("unauthorized", "Missing or invalid Access Key.");

/** A user token where an Access Key belongs: still 401, with the way out. */
const userTokenHere = () =>
  new ApiError(
    "unauthorized",
    "This is a user token (ut_...): user tokens are for the management API (/api/v1/...) and the console. " +
      "The public API takes an Access Key: Authorization: Bearer ak_... (mint one under Access Keys).",
  );

/** Resolves a raw Bearer token to its key, or throws 401 unauthorized. */
export async function verifyAccessKey(raw: string | null): Promise<KeyPrincipal> {
  if (raw?.startsWith("ut_")) throw userTokenHere();
  if (!raw || !ACCESS_KEY_RE.test(raw)) throw unauthorized();
  const hash = sha256(raw);
  const now = Date.now();
  let entry = cache.get(hash);
  if (!entry || entry.expires <= now) {
    const db = await prisma();
    // Found by the SHA-256 of the presented key, so the row's hash equals it by construction: no
    // second comparison. What keeps timing from leaking the key is that the database only ever sees
    // the hash; how long the index takes to miss says nothing about which raw key is near a real one.
    const row = await db.accessKey.findUnique({ where: { keyHash: hash } });
    const principal =
      row && !row.revokedAt
        ? {
            keyId: row.id,
            organizationId: row.organizationId,
            name: row.name,
            permissions: row.permissions,
            rateLimitPerMinute: row.rateLimitPerMinute,
            agentIds: row.agentIds ?? [],
            expiresAt: row.expiresAt?.getTime() ?? null,
            revokeAt: row.revokeAt?.getTime() ?? null,
          }
        : null;
    entry = { principal, hash, expires: now + env().KEY_CACHE_TTL_MS };
    if (cache.size >= MAX_CACHE) cache.clear();
    if (env().KEY_CACHE_TTL_MS > 0) cache.set(hash, entry);
  }
  if (!entry.principal) throw unauthorized();
  // On every verification, cached or not: the cache never outlives a key's expiry or grace.
  const at = clockNow().getTime();
  if (entry.principal.revokeAt !== null && entry.principal.revokeAt <= at) throw unauthorized();
  if (entry.principal.expiresAt !== null && entry.principal.expiresAt <= at) {
    throw new ApiError(
      "access_key_expired",
      `This Access Key expired at ${new Date(entry.principal.expiresAt).toISOString()}: mint a new key (or ask an admin to extend it).`,
    );
  }
  touch(entry.principal.keyId, now);
  return entry.principal;
}

function touch(keyId: string, now: number) {
  const last = touched.get(keyId) ?? 0;
  if (now - last < TOUCH_EVERY_MS) return;
  touched.set(keyId, now);
  // Conditional so that many instances still write at most about once a minute.
  void prisma()
    .then((db) =>
      db.accessKey.updateMany({
        where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - TOUCH_EVERY_MS) } }] },
        data: { lastUsedAt: new Date(now) },
      }),
    )
    .catch(() => touched.delete(keyId));
}

export function requirePermission(principal: KeyPrincipal, permission: string) {
  if (!principal.permissions.includes(permission)) {
    throw new ApiError("forbidden", `This Access Key lacks the ${permission} permission.`);
  }
}
