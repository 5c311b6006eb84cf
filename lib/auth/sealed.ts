// Secrets at rest that the service must read back (webhook signing secrets, organization secrets):
// AES-256-GCM with a key derived by HKDF-SHA256 from the service's auth secret (AUTH_SECRET, or the
// one in the data folder), one key per purpose, so that a database dump alone reveals nothing and
// a value sealed for one purpose or organization cannot be opened as another. Values never reach a log.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "../env";
import { authSecret } from "./secret-files";

const VERSION = "v1";

export interface Sealer {
  /** The AES key of this purpose derived from `master` (the auth secret). */
  deriveKey(master: string): Buffer;
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url); `aad` binds it to its owner (organization, name). */
  seal(value: string, aad: string, key?: Buffer): string;
  /** The value back; throws when the stored value was altered, the aad differs or the auth secret changed. */
  open(stored: string, aad: string, key?: Buffer): string;
}

/** A sealer for one purpose (`info` of the key derivation: changing it makes stored values unreadable). */
export function sealer(info: string): Sealer {
  const deriveKey = (master: string) => Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), info, 32));
  let cached: { master: string; key: Buffer } | undefined;
  const serviceKey = () => {
    const master = authSecret(env());
    if (cached?.master !== master) cached = { master, key: deriveKey(master) };
    return cached.key;
  };
  return {
    deriveKey,
    seal(value, aad, key = serviceKey()) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(aad));
      const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(stored, aad, key = serviceKey()) {
      const [version, iv, tag, data] = stored.split(".");
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("unrecognised encrypted secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
