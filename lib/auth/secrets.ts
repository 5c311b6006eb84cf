// Secrets: generation (prefix + base62 of >= 32 random bytes), SHA-256 hashing for storage,
// constant-time comparison, and scrypt password hashes.
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { randomBase62 } from "../ids";

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

/** 43 base62 characters carry 256 bits: 32 random bytes' worth. */
const SECRET_CHARS = 43;

export const ACCESS_KEY_RE = /^ak_[0-9A-Za-z]{43}$/;
export const USER_TOKEN_RE = /^ut_[0-9A-Za-z]{43}$/;
/** The token of an invitation link (lib/orgs/invitations.ts). */
export const INVITATION_TOKEN_RE = /^it_[0-9A-Za-z]{43}$/;

export function generateSecret(prefix: "ak" | "ut" | "it"): { raw: string; hash: string; start: string } {
  const raw = `${prefix}_${randomBase62(SECRET_CHARS)}`;
  return { raw, hash: sha256(raw), start: raw.slice(0, prefix.length + 6) };
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  // Compare equal-length buffers only; the length check leaks nothing secret (hashes are fixed size).
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const derived = await scrypt(password, Buffer.from(salt, "base64"), 32);
  const expected = Buffer.from(key, "base64");
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/** Reads `Authorization: Bearer <token>`; anything else is null. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}
