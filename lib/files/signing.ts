// Signed download URLs (docs/api.md, Signed downloads: 15 minutes) for local storage: the token carries what the
// download route needs (storage key, filename, media type, expiry) and an HMAC-SHA256 over it, so
// the route needs no database read and an S3 implementation can swap in presigned URLs.
import { createHmac } from "node:crypto";
import { z } from "zod";
import { dataDirSecret } from "../auth/secret-files";
import { safeEqual } from "../auth/secrets";
import { env } from "../env";
import { ApiError } from "../errors";
import { log } from "../log";

export const DOWNLOAD_TTL_SECONDS = 15 * 60;
export const DOWNLOAD_PATH = "/api/files/download";

const TokenPayload = z.object({
  /** storage key */
  k: z.string().min(1),
  /** filename */
  n: z.string(),
  /** content type */
  t: z.string(),
  /** expiry, unix seconds */
  e: z.number().int(),
});

export interface SignedDownload {
  storageKey: string;
  filename: string;
  contentType: string;
  expiresAt: Date;
}

let cachedSecret: { source: string; key: Buffer } | undefined;

/**
 * SIGNING_SECRET when set. Otherwise every instance must still agree on one key:
 * - PostgreSQL (DATABASE_URL): derived from the database's credentials and name (not its host, so
 *   instances that reach it through different addresses agree);
 * - embedded: random, generated once and kept in `${DATA_DIR}/signing-secret` (mode 0600).
 */
function signingKey(): Buffer {
  const e = env();
  const source = e.SIGNING_SECRET ? "env" : e.DATABASE_URL ? `db:${e.DATABASE_URL}` : `dir:${e.DATA_DIR}`;
  if (cachedSecret?.source === source) return cachedSecret.key;
  let key: Buffer;
  if (e.SIGNING_SECRET) {
    key = Buffer.from(e.SIGNING_SECRET, "utf8");
  } else if (e.DATABASE_URL) {
    const u = new URL(e.DATABASE_URL);
    const material = [decodeURIComponent(u.username), decodeURIComponent(u.password), u.pathname].join("\n");
    key = createHmac("sha256", "agent-webhook-service/download-signing/v1").update(material).digest();
    log.warn("SIGNING_SECRET is not set: download URLs are signed with a key derived from DATABASE_URL");
  } else {
    key = Buffer.from(dataDirSecret(e.DATA_DIR, "signing-secret"), "utf8");
  }
  cachedSecret = { source, key };
  return key;
}

function mac(payload: string): Buffer {
  return createHmac("sha256", signingKey()).update(payload).digest();
}

export function signDownload(opts: {
  storageKey: string;
  filename: string;
  contentType: string;
  baseUrl: string;
  ttlSeconds?: number;
}): { url: string; url_expires_at: string } {
  const expires = Math.floor(Date.now() / 1000) + (opts.ttlSeconds ?? DOWNLOAD_TTL_SECONDS);
  const payload = Buffer.from(
    JSON.stringify({ k: opts.storageKey, n: opts.filename, t: opts.contentType, e: expires }),
  ).toString("base64url");
  const token = `${payload}.${mac(payload).toString("base64url")}`;
  return {
    url: `${opts.baseUrl.replace(/\/+$/, "")}${DOWNLOAD_PATH}?token=${token}`,
    url_expires_at: new Date(expires * 1000).toISOString(),
  };
}

/**
 * Checks the signature first, then the expiry, so a forged expiry is a bad signature. The signature
 * must be exactly the text that was issued (compared in constant time): decoding it first would
 * accept other spellings of the same bytes (a last character differing in its unused bits, stray
 * characters a lenient decoder skips).
 */
export function verifyDownload(token: string, now = Date.now()): SignedDownload {
  const invalid = () => new ApiError("invalid_signature", "The download link is invalid.");
  const [payload, sig, extra] = token.split(".");
  if (!payload || !sig || extra !== undefined) throw invalid();
  if (!safeEqual(sig, mac(payload).toString("base64url"))) throw invalid();
  let parsed: z.infer<typeof TokenPayload>;
  try {
    parsed = TokenPayload.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    throw invalid();
  }
  const expiresAt = new Date(parsed.e * 1000);
  if (now >= expiresAt.getTime()) {
    throw new ApiError("url_expired", "The download link has expired; fetch the resource again for a fresh one.", {
      expired_at: expiresAt.toISOString(),
    });
  }
  return { storageKey: parsed.k, filename: parsed.n, contentType: parsed.t, expiresAt };
}

/** For tests that switch DATA_DIR or SIGNING_SECRET between cases. */
export function resetSigningKeyCache() {
  cachedSecret = undefined;
}
