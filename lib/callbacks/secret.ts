// The organizations' signing secrets at rest: AES-256-GCM with a key derived by HKDF-SHA256 from the
// service's auth secret (AUTH_SECRET, or the one in the data folder), so that the worker can sign
// while a database dump alone reveals nothing. Secrets never reach a log.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "../auth/secret-files";
import { env } from "../env";

const INFO = "agent-webhook-service/callback-signing-secret/v1";
const VERSION = "v1";

/** The AES key derived from `master` (the auth secret). */
export function deriveKey(master: string): Buffer {
  return Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), INFO, 32));
}

let cached: { master: string; key: Buffer } | undefined;
function serviceKey(): Buffer {
  const master = authSecret(env());
  if (cached?.master !== master) cached = { master, key: deriveKey(master) };
  return cached.key;
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url); `aad` binds it to its organization. */
export function encryptSecret(secret: string, aad: string, key: Buffer = serviceKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const data = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The secret back; throws when the stored value was altered or the auth secret changed. */
export function decryptSecret(stored: string, aad: string, key: Buffer = serviceKey()): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("unrecognised encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
