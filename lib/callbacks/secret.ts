// The organizations' Standard Webhooks signing secrets at rest, sealed (lib/auth/sealed.ts) so that
// the worker can sign while a database dump alone reveals nothing.
import { randomBytes } from "node:crypto";
import { sealer } from "../auth/sealed";

const box = sealer("agent-webhook-service/callback-signing-secret/v1");

export const deriveKey = box.deriveKey;
export const encryptSecret = box.seal;
export const decryptSecret = box.open;

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
