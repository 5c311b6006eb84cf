// Signed download links of exports (docs/api.md, Exports): the token names the export and its
// organization and when it expires, with an HMAC-SHA256 under a key derived from the auth secret
// for this purpose only (lib/auth/sealed.ts's derivation), compared in constant time. It is checked
// beside the caller's own credentials: a link works for a member of the export's organization.
import { createHmac } from "node:crypto";
import { z } from "zod";
import { sealer } from "../auth/sealed";
import { authSecret } from "../auth/secret-files";
import { safeEqual } from "../auth/secrets";
import { env } from "../env";
import { ApiError } from "../errors";

export const EXPORT_LINK_TTL_SECONDS = 15 * 60;

const LINK_KEY_INFO = "awhs export download links v1";
let cached: { master: string; key: Buffer } | undefined;

function linkKey(): Buffer {
  const master = authSecret(env());
  if (cached?.master !== master) cached = { master, key: sealer(LINK_KEY_INFO).deriveKey(master) };
  return cached.key;
}

const mac = (payload: string) => createHmac("sha256", linkKey()).update(payload).digest("base64url");

const Payload = z.object({ x: z.string(), o: z.string(), e: z.number().int() });

/** A token for `exportId` of `organizationId`, valid `ttlSeconds` from `now` (a past `now` makes an expired one). */
export function signExportToken(opts: {
  exportId: string;
  organizationId: string;
  now?: number;
  ttlSeconds?: number;
}): { token: string; expiresAt: Date } {
  const e = Math.floor((opts.now ?? Date.now()) / 1000) + (opts.ttlSeconds ?? EXPORT_LINK_TTL_SECONDS);
  const payload = Buffer.from(JSON.stringify({ x: opts.exportId, o: opts.organizationId, e })).toString("base64url");
  return { token: `${payload}.${mac(payload)}`, expiresAt: new Date(e * 1000) };
}

/** Checks the signature first (constant time), then that it names this export, then the expiry. */
export function verifyExportToken(opts: { token: string; exportId: string; organizationId: string; now?: number }) {
  const invalid = () => new ApiError("invalid_signature", "The download link is invalid.");
  const [payload, sig, extra] = opts.token.split(".");
  if (!payload || !sig || extra !== undefined || !safeEqual(sig, mac(payload))) throw invalid();
  let parsed: z.infer<typeof Payload>;
  try {
    parsed = Payload.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    throw invalid();
  }
  if (parsed.x !== opts.exportId || parsed.o !== opts.organizationId) throw invalid();
  if ((opts.now ?? Date.now()) >= parsed.e * 1000) {
    throw new ApiError("url_expired", "The download link has expired; read the export again for a fresh one.", {
      expired_at: new Date(parsed.e * 1000).toISOString(),
    });
  }
}
