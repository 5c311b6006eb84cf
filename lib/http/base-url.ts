// The address callers reach us at, for links we hand out (signed download URLs). PUBLIC_URL wins
// because behind a proxy the request's own origin is an internal address.
import { env } from "../env";

export function baseUrl(req: Request): string {
  const configured = env().PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return new URL(req.url).origin;
}

/** For links made by jobs, with no request at hand: PUBLIC_URL, else this server's own address. */
export function baseUrlForJobs(): string {
  const e = env();
  return (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
}
