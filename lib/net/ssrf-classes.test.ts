// Every forbidden address class of the upstream guard, table-driven, through real
// guarded fetches: IP literals in every spelling a URL accepts (decimal, octal, hex, short forms,
// IPv4-mapped IPv6), host names that resolve to a forbidden address, and redirects to one. A safety
// net in the dialling layer records every address the guard lets through and dials only loopback,
// so a broken guard fails here instead of sending traffic anywhere. upstream-guard.test.ts has the
// guard's messages, the allowlist and the policy from the environment.
import http from "node:http";
import { isIP, type AddressInfo, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { buildConnector } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  findUpstreamRefusal,
  guardedDispatcher,
  guardedFetch,
  type GuardOptions,
  type Resolve,
  type UpstreamPolicy,
} from "./upstream-guard";

let server: http.Server;
let port: number;
let hits: string[] = [];
/** Addresses the guard let through to the dialling layer (only loopback is then really dialled). */
let passed: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (to) return res.writeHead(302, { location: to }).end();
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits = [];
  passed = [];
});

const normal = (a: string) => ipaddr.process(a).toString();
const isLoopback = (a: string) => normal(a) === "127.0.0.1" || normal(a) === "::1";

const safetyNet: GuardOptions["buildConnector"] = (options) => {
  const guarded = (options as { lookup: LookupFunction }).lookup;
  const lookup: LookupFunction = (hostname, opts, cb) =>
    guarded(hostname, opts, (err, address, family) => {
      if (err) return cb(err, address, family);
      const list = Array.isArray(address) ? address.map((x) => x.address) : [address];
      passed.push(...list);
      if (!list.every(isLoopback)) return cb(new Error(`safety net: would dial ${list.join(", ")}`), "");
      cb(null, address, family);
    });
  const real = buildConnector({ ...options, lookup });
  return (opts, callback) => {
    if (isIP(opts.hostname.replace(/^\[|\]$/g, ""))) {
      const literal = opts.hostname.replace(/^\[|\]$/g, "");
      passed.push(literal);
      if (!isLoopback(literal)) {
        return queueMicrotask(() => callback(new Error(`safety net: would dial ${literal}`), null));
      }
    }
    real(opts, callback);
  };
};

const STRICT: UpstreamPolicy = { allowPrivate: false, allowlist: [] };
const OPEN: UpstreamPolicy = { allowPrivate: true, allowlist: [] };

/** A fetch through a fresh guarded dispatcher; the error (or undefined) it ended with. */
async function attempt(url: string, policy: UpstreamPolicy, resolve?: Resolve) {
  const dispatcher = guardedDispatcher({ policy: () => policy, resolve, buildConnector: safetyNet });
  try {
    const res = await guardedFetch(url, { signal: AbortSignal.timeout(10_000) }, dispatcher);
    await res.body?.cancel();
    return { status: res.status, error: undefined };
  } catch (e) {
    return { status: undefined, error: e };
  } finally {
    void dispatcher.close();
  }
}

const P = () => String(port);

/**
 * [class, URL (PORT: the local server's port), always refused]. `always`: no setting lets it
 * through; otherwise ALLOW_PRIVATE_UPSTREAMS does (and the safety net shows what would be dialled).
 */
const LITERALS: [string, string, boolean][] = [
  ["IPv4 loopback", "http://127.0.0.1:PORT/", false],
  ["IPv4 loopback, anywhere in 127/8", "http://127.45.6.7:PORT/", false],
  ["IPv6 loopback", "http://[::1]:PORT/", false],
  ["private 10/8", "http://10.1.2.3/", false],
  ["private 172.16/12", "http://172.31.255.254/", false],
  ["private 192.168/16", "http://192.168.0.1/", false],
  ["shared CGNAT 100.64/10", "http://100.64.0.1/", false],
  ["link-local 169.254/16", "http://169.254.10.10/", true],
  ["link-local fe80::/10", "http://[fe80::abcd]/", true],
  ["metadata 169.254.169.254", "http://169.254.169.254/latest/meta-data/", true],
  ["metadata fd00:ec2::254 (AWS IPv6)", "http://[fd00:ec2::254]/", true],
  ["unique-local fc00::/7, fc half", "http://[fc00::1]/", false],
  ["unique-local fc00::/7, fd half", "http://[fdff:1::1]/", false],
  ["unspecified 0.0.0.0", "http://0.0.0.0:PORT/", true],
  ["unspecified, written 0", "http://0:PORT/", true],
  ["unspecified ::", "http://[::]:PORT/", true],
  ["IPv4-mapped loopback ::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]:PORT/", false],
  ["IPv4-mapped loopback in hex ::ffff:7f00:1", "http://[::ffff:7f00:1]:PORT/", false],
  ["IPv4-mapped private ::ffff:10.0.0.1", "http://[::ffff:10.0.0.1]/", false],
  ["IPv4-mapped metadata ::ffff:a9fe:a9fe", "http://[::ffff:a9fe:a9fe]/", true],
  ["decimal loopback 2130706433", "http://2130706433:PORT/", false],
  ["octal loopback 0177.0.0.1", "http://0177.0.0.1:PORT/", false],
  ["octal loopback as one number 017700000001", "http://017700000001:PORT/", false],
  ["hex loopback 0x7f.0.0.1", "http://0x7f.0.0.1:PORT/", false],
  ["hex loopback as one number 0x7f000001", "http://0x7f000001:PORT/", false],
  ["short loopback 127.1", "http://127.1:PORT/", false],
  ["decimal metadata 2852039166", "http://2852039166/", true],
  ["octal metadata 0251.0376.0251.0376", "http://0251.0376.0251.0376/", true],
  ["hex metadata 0xa9.0xfe.0xa9.0xfe", "http://0xa9.0xfe.0xa9.0xfe/", true],
];

describe("IP literals in every spelling", () => {
  it.each(LITERALS)("%s (%s): refused without the setting, before anything is dialled", async (_c, url, always) => {
    const r = await attempt(url.replace("PORT", P()), STRICT);
    const refusal = findUpstreamRefusal(r.error);
    expect(refusal, `not refused by the guard: ${String((r.error as Error)?.cause ?? r.error)}`).toBeDefined();
    expect(refusal!.always).toBe(always);
    expect(passed).toEqual([]);
    expect(hits).toEqual([]);
  });

  it.each(LITERALS)(
    "%s (%s): with private upstreams allowed, only the always-refused classes stay refused",
    async (_c, url, always) => {
      const r = await attempt(url.replace("PORT", P()), OPEN);
      if (always) {
        expect(findUpstreamRefusal(r.error)?.always).toBe(true);
        expect(passed).toEqual([]);
      } else {
        // The guard let it through (the safety net then dials only this machine's 127.0.0.1).
        expect(findUpstreamRefusal(r.error), String((r.error as Error)?.cause ?? r.error)).toBeUndefined();
        expect(passed).toHaveLength(1);
        if (normal(passed[0]!) === "127.0.0.1" && url.includes("PORT")) {
          expect(r.status).toBe(200);
          expect(hits).toEqual(["/"]);
        }
      }
    },
  );
});

/** [class, host name, what it resolves to, always refused]. */
const NAMES: [string, string, string[], boolean][] = [
  ["a name resolving to 127.0.0.1", "loopback.test", ["127.0.0.1"], false],
  ["a name resolving to ::1", "loopback6.test", ["::1"], false],
  ["a name resolving to IPv4-mapped loopback", "mapped.test", ["::ffff:127.0.0.1"], false],
  ["a name resolving to a private address", "private.test", ["10.0.0.5"], false],
  ["a name resolving to CGNAT", "cgnat.test", ["100.64.1.1"], false],
  ["a name resolving to unique-local", "ula.test", ["fd00::1"], false],
  ["a name resolving to 0.0.0.0", "zero.test", ["0.0.0.0"], true],
  ["a name resolving to link-local", "linklocal.test", ["169.254.3.3"], true],
  ["a name resolving to the metadata address", "meta.test", ["169.254.169.254"], true],
  ["a name resolving to the IPv6 metadata address", "meta6.test", ["fd00:ec2::254"], true],
  ["a name with a public and a loopback address", "mixed.test", ["93.184.216.34", "127.0.0.1"], false],
];

const resolver =
  (table: [string, string, string[], boolean][]): Resolve =>
  async (name) => {
    const row = table.find(([, host]) => host === name);
    if (!row) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return row[2].map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

it("a URL with credentials is refused before any connection (fetch itself)", async () => {
  const r = await attempt("http://user:pass@169.254.169.254/", OPEN);
  expect(String(r.error)).toMatch(/credentials/);
  expect(passed).toEqual([]);
});

describe("host names, checked on the address they resolve to", () => {
  it.each(NAMES)("%s (%s -> %j): refused without the setting, nothing dialled", async (_c, host, _to, always) => {
    const r = await attempt(`http://${host}:${P()}/`, STRICT, resolver(NAMES));
    const refusal = findUpstreamRefusal(r.error);
    expect(refusal, String((r.error as Error)?.cause ?? r.error)).toBeDefined();
    expect(refusal!.always).toBe(always);
    expect(refusal!.message).toContain(`upstream host ${host} resolves to`);
    // The caller-safe wording never names the resolved address.
    for (const address of _to) expect(refusal!.publicMessage).not.toContain(address);
    expect(passed).toEqual([]);
  });

  it.each(["localhost", "LOCALHOST"])(
    "the system's %s (resolves to loopback) is refused without the setting",
    async (host) => {
      const r = await attempt(`http://${host}:${P()}/`, STRICT);
      expect(findUpstreamRefusal(r.error)?.message).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
      expect(hits).toEqual([]);
    },
  );
});

/** Redirect targets an allowed upstream may bounce to: each is checked like a first request. */
const REDIRECTS: [string, string, boolean][] = [
  ["the metadata address", "http://169.254.169.254/latest/meta-data/iam/security-credentials/", true],
  ["the metadata address in decimal", "http://2852039166/latest/meta-data/", true],
  ["the metadata address IPv4-mapped", "http://[::ffff:169.254.169.254]/", true],
  ["the IPv6 metadata address", "http://[fd00:ec2::254]/", true],
  ["a name resolving to the metadata address", "http://meta.test/", true],
  ["0.0.0.0", "http://0.0.0.0:PORT/", true],
  ["loopback by name (not the allowlisted host)", "http://loopback.test:PORT/", false],
  ["a private address", "http://10.0.0.1/", false],
];

describe("redirects from an allowed upstream", () => {
  it.each(REDIRECTS)("to %s (%s): refused, only the allowed upstream contacted", async (_c, to, always) => {
    // Only the local server itself, by this literal and port, is allowed (as UPSTREAM_ALLOWLIST would).
    const policy: UpstreamPolicy = { allowPrivate: false, allowlist: [{ host: "127.0.0.1", port: P() }] };
    const target = to.replace("PORT", P());
    const r = await attempt(`http://127.0.0.1:${P()}/r?to=${encodeURIComponent(target)}`, policy, resolver(NAMES));
    const refusal = findUpstreamRefusal(r.error);
    expect(refusal, String((r.error as Error)?.cause ?? r.error)).toBeDefined();
    expect(refusal!.always).toBe(always);
    expect(hits).toEqual([`/r?to=${encodeURIComponent(target)}`]);
    expect(passed).toEqual(["127.0.0.1"]);
  });
});
