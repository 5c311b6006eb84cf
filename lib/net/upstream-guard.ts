// Guarded outgoing calls (SSRF): every request the service makes to an address named by a
// customer's configuration (the `http` runtime, the `openai` runtime's base_url, workflow `http`
// and `llm` steps, and any later outgoing call) goes through `guardedFetch`.
//
// - Always refused: link-local (169.254.0.0/16, fe80::/10), cloud metadata addresses and host
//   names, unspecified (0.0.0.0/8, ::), multicast and broadcast.
// - Refused unless ALLOW_PRIVATE_UPSTREAMS=true or the host is in UPSTREAM_ALLOWLIST: loopback,
//   private (10/8, 172.16/12, 192.168/16), shared CGNAT (100.64/10), unique-local (fc00::/7),
//   site-local and other special-purpose ranges, and IPv6 forms that embed any of those
//   (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4).
//
// The check is on the address actually dialled: host names are resolved inside the connector (the
// socket's own `lookup`), so a name that resolves to a public address when configured and to
// 169.254.169.254 later (DNS rebinding) is refused at connection time; IP-literal hosts, for which
// Node skips `lookup`, are checked before dialling. Each redirect opens its connection through the
// same dispatcher, so it is checked the same way. Address classes come from `ipaddr.js`.
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { env, splitUpstreamHost } from "../env";

/** What a refused connection fails with; undici hands it on as the `cause` of "fetch failed". */
export class UpstreamRefusedError extends Error {
  readonly code = "UPSTREAM_REFUSED";
  constructor(
    /** Internal (logs): names the resolved address too. */
    message: string,
    /** Safe for the agent's owner: never names what a host name resolved to. */
    readonly publicMessage: string,
    /** True for the classes no setting allows (link-local, metadata, unspecified, multicast, broadcast). */
    readonly always: boolean,
  ) {
    super(message);
    this.name = "UpstreamRefusedError";
  }
}

/** The refusal in an error or in its chain of causes (fetch -> "fetch failed" -> refusal). */
export function findUpstreamRefusal(e: unknown): UpstreamRefusedError | undefined {
  for (let cur = e, depth = 0; cur && depth < 8; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof UpstreamRefusedError) return cur;
  }
  return undefined;
}

// ---- address classes ----

export type Verdict =
  | { refused: false }
  /** `what` reads after "is" / "resolves to": "a link-local address". */
  | { refused: "always" | "private"; what: string };

const ALWAYS = { "cloud metadata": "a", "link-local": "a", unspecified: "an", multicast: "a", broadcast: "a" } as const;
const PRIVATE = {
  loopback: "a",
  private: "a",
  "shared (CGNAT)": "a",
  "unique-local": "a",
  "site-local": "a",
  "reserved or special-purpose": "a",
} as const;
type ClassName = keyof typeof ALWAYS | keyof typeof PRIVATE;

/** Instance metadata services: AWS/Azure/GCP/OpenStack, AWS ECS task metadata, AWS IPv6, Alibaba, Oracle. */
const METADATA_ADDRESSES = new Set(
  ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192"].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);
/** Names that reach a metadata service whatever they resolve to (GCP answers "metadata" too). */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

const V4_CLASS: Record<string, ClassName | undefined> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "shared (CGNAT)",
  unicast: undefined,
};
const V6_CLASS: Record<string, ClassName | undefined> = {
  unspecified: "unspecified",
  linkLocal: "link-local",
  multicast: "multicast",
  loopback: "loopback",
  uniqueLocal: "unique-local",
  deprecatedSiteLocal: "site-local",
  unicast: undefined,
};

const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
const SIX_TO_FOUR = ipaddr.parseCIDR("2002::/16");

const v4From = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 address an IPv6 form carries and the name of that form, when it is one. */
function embeddedV4(a: ipaddr.IPv6): [ipaddr.IPv4, string] | undefined {
  const p = a.parts;
  const range = a.range();
  if (range === "ipv4Mapped") return [a.toIPv4Address(), "IPv4-mapped"];
  if (range === "rfc6145") return [v4From(p[6]!, p[7]!), "IPv4-translated"];
  if (a.match(NAT64)) return [v4From(p[6]!, p[7]!), "NAT64"];
  if (a.match(SIX_TO_FOUR)) return [v4From(p[1]!, p[2]!), "6to4"];
  // IPv4-compatible ::a.b.c.d (deprecated), but not :: and ::1 themselves.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1))
    return [v4From(p[6]!, p[7]!), "IPv4-compatible"];
  return undefined;
}

function verdictOf(name: ClassName | undefined, form?: string): Verdict {
  if (!name) return { refused: false };
  const always = name in ALWAYS;
  const article = form
    ? form === "6to4"
      ? "a"
      : "an"
    : always
      ? ALWAYS[name as keyof typeof ALWAYS]
      : PRIVATE[name as keyof typeof PRIVATE];
  return { refused: always ? "always" : "private", what: `${article} ${form ? `${form} ` : ""}${name} address` };
}

/** Classifies one IP address (v4 or v6, as text). Unparsable text is refused always. */
export function classifyAddress(ip: string): Verdict {
  if (!ipaddr.isValid(ip)) return { refused: "always", what: "an unrecognised address" };
  const addr = ipaddr.parse(ip);
  if (METADATA_ADDRESSES.has(addr.toNormalizedString())) return verdictOf("cloud metadata");
  if (addr.kind() === "ipv4") {
    const range = addr.range();
    return verdictOf(range in V4_CLASS ? V4_CLASS[range] : "reserved or special-purpose");
  }
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedV4(v6);
  if (inner) {
    const [v4, form] = inner;
    if (METADATA_ADDRESSES.has(v4.toNormalizedString())) return verdictOf("cloud metadata", form);
    const range = v4.range();
    return verdictOf(range in V4_CLASS ? V4_CLASS[range] : "reserved or special-purpose", form);
  }
  const range = v6.range();
  return verdictOf(range in V6_CLASS ? V6_CLASS[range] : "reserved or special-purpose");
}

// ---- policy ----

export interface AllowedHost {
  /** Lower-case host name without a trailing dot, or a normalised IP literal. */
  host: string;
  /** Only this port when given; any port otherwise. */
  port?: string;
}

export interface UpstreamPolicy {
  /** ALLOW_PRIVATE_UPSTREAMS: loopback, private and other non-public (but not always-refused) addresses pass. */
  allowPrivate: boolean;
  /** UPSTREAM_ALLOWLIST: hosts (as written in the URL) whose non-public addresses pass. */
  allowlist: readonly AllowedHost[];
}

const normaliseHost = (host: string): string => {
  const h = host.toLowerCase().replace(/\.$/, "");
  return net.isIP(h) ? ipaddr.parse(h).toNormalizedString() : h;
};

/** One UPSTREAM_ALLOWLIST entry (`host`, `host:port`, `[v6]`, `[v6]:port`); undefined when malformed. */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const parts = splitUpstreamHost(entry);
  return parts && { ...parts, host: normaliseHost(parts.host) };
}

/** The policy of the environment, read at each connection (so tests that reset the env see theirs). */
export function policyFromEnv(): UpstreamPolicy {
  const e = env();
  return {
    allowPrivate: e.ALLOW_PRIVATE_UPSTREAMS,
    // Entries were checked when the environment was read.
    allowlist: e.UPSTREAM_ALLOWLIST.flatMap((entry) => parseAllowedHost(entry) ?? []),
  };
}

function allowlisted(policy: UpstreamPolicy, hostname: string, port: string): boolean {
  const host = normaliseHost(hostname);
  return policy.allowlist.some((a) => a.host === host && (a.port === undefined || a.port === port));
}

const SETTING_HINT = (host: string, literal: boolean) =>
  `set ALLOW_PRIVATE_UPSTREAMS=true or add ${literal ? "the host" : `"${host}"`} to UPSTREAM_ALLOWLIST`;

/** The refusal for dialling `address` (the host itself when it is an IP literal), or undefined. */
function refusal(hostname: string, address: string, privateAllowed: boolean): UpstreamRefusedError | undefined {
  const v = classifyAddress(address);
  if (!v.refused || (v.refused === "private" && privateAllowed)) return undefined;
  const literal = net.isIP(hostname) !== 0;
  const always = v.refused === "always";
  const tail = always ? "always refused" : SETTING_HINT(hostname, literal);
  if (literal) {
    const text = always
      ? `upstream address ${address} is ${v.what} and ${tail}`
      : `upstream ${address} is ${v.what}; ${tail}`;
    return new UpstreamRefusedError(text, text, always);
  }
  const joint = always ? `, which is ${tail}` : `; ${tail}`;
  return new UpstreamRefusedError(
    `upstream host ${hostname} resolves to ${address}, ${v.what}${joint}`,
    `upstream host ${hostname} resolves to ${v.what}${joint}`,
    always,
  );
}

// ---- the connector ----

export type Resolved = { address: string; family: number }[];
/** DNS resolution (all addresses); `dns.lookup` by default, replaceable in tests. */
export type Resolve = (hostname: string, options: { family?: number; hints?: number }) => Promise<Resolved>;

const systemResolve: Resolve = (hostname, options) => dns.promises.lookup(hostname, { ...options, all: true });

/**
 * A `lookup` for the socket: resolves, refuses the whole name when any of its addresses is refused
 * (an attacker controls which one would be tried first), and hands the checked addresses to Node,
 * which connects to one of them (Happy Eyeballs across them when it asks for `all`).
 */
function guardedLookup(resolve: Resolve, privateAllowed: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    // Node asks with the socket's family and hints (e.g. ADDRCONFIG); `all` when it races families.
    const family = typeof options.family === "number" && options.family ? options.family : undefined;
    resolve(hostname, { ...(family ? { family } : {}), ...(options.hints ? { hints: options.hints } : {}) }).then(
      (addresses) => {
        if (!addresses.length) {
          const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
          return callback(err, "");
        }
        const refused = addresses
          .map((a) => refusal(hostname, a.address, privateAllowed))
          .filter((r) => r !== undefined)
          .sort((a, b) => Number(b.always) - Number(a.always))[0];
        if (refused) return callback(refused, "");
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}

export type Connector = buildConnector.connector;

export interface GuardOptions {
  /** Default: the environment's (ALLOW_PRIVATE_UPSTREAMS, UPSTREAM_ALLOWLIST), read at each connection. */
  policy?: () => UpstreamPolicy;
  /** Default: the system resolver (`dns.lookup`). */
  resolve?: Resolve;
  /** Builds the connector that dials (default: undici's own); tests wrap it to see what is dialled. */
  buildConnector?: (options: buildConnector.BuildOptions) => Connector;
}

/** An undici `connect` function that refuses forbidden addresses before anything is dialled. */
export function guardedConnector(opts: GuardOptions = {}): Connector {
  const policy = opts.policy ?? policyFromEnv;
  const resolve = opts.resolve ?? systemResolve;
  const build = opts.buildConnector ?? buildConnector;
  const strict = build({ lookup: guardedLookup(resolve, false) });
  const lenient = build({ lookup: guardedLookup(resolve, true) });
  return (options, callback) => {
    const fail = (err: Error) => queueMicrotask(() => callback(err, null));
    const hostname = options.hostname;
    const port = options.port || (options.protocol === "https:" ? "443" : "80");
    const p = policy();
    const privateAllowed = p.allowPrivate || allowlisted(p, hostname, port);
    const name = normaliseHost(hostname);
    if (METADATA_HOSTS.has(name)) {
      const text = `upstream host ${hostname} is a cloud metadata host and always refused`;
      return fail(new UpstreamRefusedError(text, text, true));
    }
    if (net.isIP(hostname)) {
      const refused = refusal(hostname, hostname, privateAllowed);
      if (refused) return fail(refused);
    }
    (privateAllowed ? lenient : strict)(options, callback);
  };
}

/** An undici dispatcher whose every connection (first request and each redirect) is guarded. */
export function guardedDispatcher(opts: GuardOptions = {}): Agent {
  return new Agent({ connect: guardedConnector(opts) });
}

let shared: Agent | undefined;

/** The process's guarded dispatcher (one connection pool for all upstream calls). */
export function upstreamDispatcher(): Agent {
  return (shared ??= guardedDispatcher());
}

/**
 * `fetch` through a guarded dispatcher (the process's own by default). A refused address rejects
 * like any connection failure ("fetch failed"), with an UpstreamRefusedError as its cause
 * (`findUpstreamRefusal`). Takes a URL, not a Request object.
 */
export function guardedFetch(
  input: string | URL | Request,
  init?: RequestInit,
  dispatcher: Agent = upstreamDispatcher(),
): Promise<Response> {
  if (typeof input !== "string" && !(input instanceof URL)) {
    return Promise.reject(new TypeError("guardedFetch takes a URL, not a Request"));
  }
  type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;
  return undiciFetch(input, { ...(init as UndiciInit), dispatcher }) as unknown as Promise<Response>;
}
