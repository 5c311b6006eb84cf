// The store behind Idempotency-Key replays (Stripe-style; the HTTP side is lib/http/idempotency.ts):
// per organization and key, for 24 hours. The first request claims the key (a unique row) before it
// runs and stores its result after; a repeat with the same request hash finds that result. The same
// key with another request, or while the first is still running, is 409 idempotency_conflict.
import { createHash } from "node:crypto";
import { isUniqueViolation, prisma } from "./db";
import { env } from "./env";
import { ApiError } from "./errors";
import type { Prisma } from "./generated/prisma/client";
import { newId } from "./ids";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  body: unknown;
  headers: Record<string, string>;
  /** Set when the stored result is an error envelope: re-rendered with the new request id. */
  error?: { code: ApiError["code"]; message: string; details?: Record<string, unknown> };
}

/** JSON with object keys sorted at every level, so that key order never changes the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(method: string, scope: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()}\n${scope}\n${canonicalJson(body)}`)
    .digest("hex");
}

/**
 * Deletes the records past their expiry (they are ignored when met before that): a periodic sweep
 * of the worker (lib/worker/periodic.ts). Returns how many went.
 */
export async function deleteExpiredIdempotencyRecords(now = new Date()): Promise<number> {
  const db = await prisma();
  return (await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}

export type Claim = { kind: "claimed"; id: string } | { kind: "replay"; status: number; response: StoredResponse };

/** Claims `key` for a request with this hash, or finds the stored result of the same request. */
export async function claimIdempotencyKey(opts: { organizationId: string; key: string; hash: string }): Promise<Claim> {
  const db = await prisma();
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    const id = newId("idem");
    try {
      await db.idempotencyRecord.create({
        data: {
          id,
          organizationId: opts.organizationId,
          key: opts.key,
          requestHash: opts.hash,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { kind: "claimed", id };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const existing = await db.idempotencyRecord.findUnique({
      where: { organizationId_key: { organizationId: opts.organizationId, key: opts.key } },
    });
    if (!existing) continue; // released meanwhile: claim again
    if (existing.expiresAt <= now) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
      continue;
    }
    if (existing.requestHash !== opts.hash) {
      throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request.");
    }
    if (existing.status === null) {
      // A claim older than the longest request a server lets run was left by a crashed process.
      const stale = existing.createdAt.getTime() < now.getTime() - env().REQUEST_TIMEOUT_MS;
      if (stale) {
        const taken = await db.idempotencyRecord.updateMany({
          where: { id: existing.id, status: null, createdAt: existing.createdAt },
          data: { createdAt: now },
        });
        if (taken.count === 1) return { kind: "claimed", id: existing.id };
      }
      throw new ApiError(
        "idempotency_conflict",
        "A request with this Idempotency-Key is still being processed; retry after it finished.",
      );
    }
    return { kind: "replay", status: existing.status, response: existing.response as unknown as StoredResponse };
  }
  throw new ApiError("idempotency_conflict", "This Idempotency-Key is contended; retry later.");
}

export async function storeIdempotentResult(id: string, status: number, response: StoredResponse) {
  const db = await prisma();
  await db.idempotencyRecord.update({
    where: { id },
    data: { status, response: response as unknown as Prisma.InputJsonValue },
  });
}

/** Frees a claim whose request failed without effects, so that a corrected request may use the key. */
export async function releaseIdempotencyKey(id: string) {
  const db = await prisma();
  await db.idempotencyRecord.deleteMany({ where: { id, status: null } });
}
