// The address callers reach us at, for links we hand out (signed download URLs), Auth.js's
// redirects and the console's same-origin check:
// 1. PUBLIC_URL when set (the address of record, e.g. behind a proxy that rewrites Host);
// 2. with TRUST_PROXY=true, X-Forwarded-Host and X-Forwarded-Proto (the proxy's view of the caller);
// 3. the request's Host header, over http (this server does not terminate TLS);
// 4. this server's listen address, when the host at hand is missing or not a well-formed host[:port],
//    so that a forged header cannot put an arbitrary string into a link.
// The request's own URL is not used: under the custom server Next builds it from the listen address
// (http://0.0.0.0:PORT), which is useless to anyone else.
import { isIPv4, isIPv6 } from "node:net";
import { env, listenBaseUrl } from "../env";

const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?";
const HOST_PORT = new RegExp(`^(?:\\[([0-9a-f:.]+)\\]|(${LABEL}(?:\\.${LABEL})*)\\.?)(?::(\\d{1,5}))?$`, "i");

/**
 * `host` or `host:port` as a link may carry it (a DNS name, an IPv4 address or a bracketed IPv6
 * address, a port from 1 to 65535), lower-cased; undefined for anything else.
 */
export function validHost(value: string | null | undefined): string | undefined {
  if (!value || value.length > 261) return undefined;
  const m = HOST_PORT.exec(value);
  if (!m) return undefined;
  const [, ipv6, name, port] = m;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return undefined;
  // All-numeric dotted names must be real IPv4 addresses (URL parsers read 1.2.3 or 999.1.1.1 oddly).
  if (name !== undefined && /^[\d.]+$/.test(name) && !isIPv4(name.replace(/\.$/, ""))) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return value.toLowerCase();
}

/** The first value of a header that proxies append to (`a, b`: `a` is the one the client used). */
const first = (value: string | null | undefined) => value?.split(",")[0]?.trim();

/** The base URL from a request's headers (`header(name)` reads one, lower-case name). */
export function baseUrlFrom(header: (name: string) => string | null | undefined): string {
  const e = env();
  if (e.PUBLIC_URL) return e.PUBLIC_URL.replace(/\/+$/, "");
  let scheme = "http";
  let host = validHost(header("host"));
  if (e.TRUST_PROXY) {
    const forwardedHost = validHost(first(header("x-forwarded-host")));
    const proto = first(header("x-forwarded-proto"))?.toLowerCase();
    if (forwardedHost) host = forwardedHost;
    if (proto === "https" || proto === "http") scheme = proto;
  }
  return host ? `${scheme}://${host}` : listenBaseUrl();
}

export const baseUrl = (req: Request): string => baseUrlFrom((name) => req.headers.get(name));

/** The origin (scheme, host, port) of the base URL, as browsers write it in `Origin`. */
export const baseOrigin = (req: Request): string => new URL(baseUrl(req)).origin;
