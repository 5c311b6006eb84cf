// The client's address, for the console's sign-in lockout (an email and address pair).
// Without TRUST_PROXY it is the connection's peer, which server.ts puts in `x-awhs-client-ip` (a
// client cannot set it). With TRUST_PROXY=true the peer is the proxy, so the address comes from
// X-Forwarded-For: its last entry, the one our proxy appended for the connection it received.
// Entries before it were sent by the client and prove nothing: taking the first would let anyone
// escape the lockout by sending a new X-Forwarded-For with each attempt. (Behind several proxies,
// the last one's view is what counts: the lockout then keys on the address that reached it.)
import { isIP } from "node:net";
import { env } from "../env";

/** An address as it may appear in X-Forwarded-For (`a.b.c.d`, `a.b.c.d:port`, `v6`, `[v6]:port`), bare; else undefined. */
function bareAddress(entry: string): string | undefined {
  let value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  return isIP(value) ? value.toLowerCase() : undefined;
}

/** The last entry of an X-Forwarded-For value, when it is an IP address. */
export function lastForwardedFor(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const entries = value.split(",");
  return bareAddress(entries[entries.length - 1]!);
}

/** `req`: a Request, or the headers of a page's request (`{ headers: await headers() }`). */
export function clientIp(req: { headers: Pick<Headers, "get"> }): string {
  if (env().TRUST_PROXY) {
    const forwarded = lastForwardedFor(req.headers.get("x-forwarded-for"));
    if (forwarded) return forwarded;
  }
  return req.headers.get("x-awhs-client-ip") || "unknown";
}
