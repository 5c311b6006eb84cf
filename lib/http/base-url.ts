// The address callers reach us at, for links we hand out (signed download URLs). PUBLIC_URL wins
// because behind a proxy the request's own origin is an internal address.
import { env } from "../env";

export function baseUrl(req: Request): string {
  const configured = env().PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return new URL(req.url).origin;
}
