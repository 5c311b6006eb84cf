// The upstream guard against real local servers and real sockets. Addresses that must never be
// dialled (metadata, link-local, ...) are only ever refused: a safety net in the dialling layer
// (`spyBuild`) records every address that would be dialled and refuses anything off this machine,
// so a broken guard fails these tests instead of sending traffic anywhere.
import http from "node:http";
import { isIP, type AddressInfo, type LookupFunction } from "node:net";
import { buildConnector } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { env, resetEnvCache } from "../env";
import {
  classifyAddress,
  findUpstreamRefusal,
  guardedDispatcher,
  guardedFetch,
  parseAllowedHost,
  policyFromEnv,
  UpstreamRefusedError,
  type GuardOptions,
  type Resolve,
  type UpstreamPolicy,
} from "./upstream-guard";

interface TestServer {
  url: string;
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** 200 {"ok":true} on any path; `/redirect?to=URL` answers 302 to URL. */
async function startServer(): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    const url = new URL(req.url ?? "/", "http://x");
    const to = url.pathname === "/redirect" ? url.searchParams.get("to") : null;
    if (to) return res.writeHead(302, { location: to }).end();
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startServer();
  b = await startServer();
});
afterAll(async () => {
  await a.close();
  await b.close();
});
afterEach(() => {
  a.hits.length = 0;
  b.hits.length = 0;
});

/** Every address handed to a socket after the guard's checks; anything but loopback is not dialled. */
let dialled: string[] = [];
afterEach(() => {
  dialled = [];
});
const isLoopback = (addr: string) => addr === "127.0.0.1" || addr === "::1";
const spyBuild: GuardOptions["buildConnector"] = (options) => {
  const guarded = (options as { lookup: LookupFunction }).lookup;
  const lookup: LookupFunction = (hostname, opts, cb) =>
    guarded(hostname, opts, (err, address, family) => {
      if (err) return cb(err, address, family);
      const list = Array.isArray(address) ? address.map((x) => x.address) : [address];
      dialled.push(...list);
      if (!list.every(isLoopback)) return cb(new Error(`test safety net: would dial ${list.join(", ")}`), "");
      cb(null, address, family);
    });
  const real = buildConnector({ ...options, lookup });
  return (opts, callback) => {
    if (isIP(opts.hostname)) {
      dialled.push(opts.hostname);
      if (!isLoopback(opts.hostname)) {
        return queueMicrotask(() => callback(new Error(`test safety net: would dial ${opts.hostname}`), null));
      }
    }
    real(opts, callback);
  };
};

const STRICT: UpstreamPolicy = { allowPrivate: false, allowlist: [] };
const OPEN: UpstreamPolicy = { allowPrivate: true, allowlist: [] };

/** A fetch through a fresh guarded dispatcher (no pooled connections from other tests). */
function fetchWith(policy: UpstreamPolicy, resolve?: Resolve) {
  const dispatcher = guardedDispatcher({ policy: () => policy, resolve, buildConnector: spyBuild });
  return async (url: string, init?: RequestInit) => {
    try {
      return await guardedFetch(url, init, dispatcher);
    } finally {
      // Closing after each call keeps every test's connections its own.
      void dispatcher.close();
    }
  };
}

/** The refusal a fetch failed with (fails the test when it failed otherwise, or did not fail). */
async function refusalOf(p: Promise<unknown>): Promise<UpstreamRefusedError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, "the call should have been refused").toBeDefined();
  const refused = findUpstreamRefusal(e);
  expect(refused, `refused by the guard, not: ${String((e as Error)?.cause ?? e)}`).toBeInstanceOf(
    UpstreamRefusedError,
  );
  return refused!;
}

const HINT = "set ALLOW_PRIVATE_UPSTREAMS=true or add";

describe("classifyAddress", () => {
  it.each([
    ["169.254.169.254", "a cloud metadata address"],
    ["169.254.170.2", "a cloud metadata address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["100.100.100.200", "a cloud metadata address"],
    ["192.0.0.192", "a cloud metadata address"],
    ["::ffff:169.254.169.254", "an IPv4-mapped cloud metadata address"],
    ["169.254.1.1", "a link-local address"],
    ["fe80::1", "a link-local address"],
    ["febf:ffff::1", "a link-local address"],
    ["::ffff:169.254.1.1", "an IPv4-mapped link-local address"],
    ["0.0.0.0", "an unspecified address"],
    ["0.1.2.3", "an unspecified address"],
    ["::", "an unspecified address"],
    ["224.0.0.1", "a multicast address"],
    ["239.255.255.250", "a multicast address"],
    ["ff02::1", "a multicast address"],
    ["255.255.255.255", "a broadcast address"],
  ])("refuses %s always: %s", (ip, what) => {
    expect(classifyAddress(ip)).toEqual({ refused: "always", what });
  });

  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.10.20.30", "a loopback address"],
    ["::1", "a loopback address"],
    ["10.0.0.1", "a private address"],
    ["10.255.255.255", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.254", "a private address"],
    ["192.168.1.1", "a private address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["100.127.255.254", "a shared (CGNAT) address"],
    ["fc00::1", "a unique-local address"],
    ["fd12:3456:789a::1", "a unique-local address"],
    ["fec0::1", "a site-local address"],
    ["240.0.0.1", "a reserved or special-purpose address"],
    ["::ffff:127.0.0.1", "an IPv4-mapped loopback address"],
    ["::ffff:10.1.2.3", "an IPv4-mapped private address"],
    ["::ffff:192.168.0.1", "an IPv4-mapped private address"],
    ["::7f00:1", "an IPv4-compatible loopback address"],
    ["64:ff9b::7f00:1", "an NAT64 loopback address"],
    ["2002:c0a8:101::1", "a 6to4 private address"],
  ])("refuses %s unless allowed: %s", (ip, what) => {
    expect(classifyAddress(ip)).toEqual({ refused: "private", what });
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "lets the public address %s pass",
    (ip) => {
      expect(classifyAddress(ip)).toEqual({ refused: false });
    },
  );
});

describe("guarded fetch: IP-literal hosts", () => {
  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.1.1:8080/",
    "http://[fe80::1]/",
    "http://[fd00:ec2::254]/",
    "http://100.100.100.200/",
    "http://[::ffff:169.254.169.254]/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "https://169.254.169.254/",
  ])("refuses %s always, even with private upstreams allowed and the host allowlisted", async (url) => {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    const refused = await refusalOf(fetchWith({ allowPrivate: true, allowlist: [{ host }] })(url));
    expect(refused.always).toBe(true);
    expect(refused.message).toMatch(/^upstream address \S+ is an? .+ address and always refused$/);
    expect(dialled).toEqual([]);
  });

  it("refuses a loopback address without the setting, names the setting, and contacts nothing", async () => {
    const refused = await refusalOf(fetchWith(STRICT)(`${a.url}/x`));
    expect(refused.always).toBe(false);
    expect(refused.message).toBe(
      "upstream 127.0.0.1 is a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add the host to UPSTREAM_ALLOWLIST",
    );
    expect(refused.publicMessage).toBe(refused.message);
    expect(a.hits).toEqual([]);
    expect(dialled).toEqual([]);
  });

  it("reaches the same loopback server with ALLOW_PRIVATE_UPSTREAMS", async () => {
    const res = await fetchWith(OPEN)(`${a.url}/x`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(a.hits).toEqual(["/x"]);
  });

  it("refuses IPv4-mapped IPv6 of loopback (::ffff:127.0.0.1) without the setting", async () => {
    const refused = await refusalOf(fetchWith(STRICT)(`http://[::ffff:127.0.0.1]:${a.port}/`));
    expect(refused.message).toContain("is an IPv4-mapped loopback address");
    expect(refused.message).toContain(HINT);
    expect(a.hits).toEqual([]);
  });

  it("refuses private, CGNAT, unique-local and embedded-IPv4 literals without the setting, before dialling", async () => {
    for (const url of [
      `http://[::127.0.0.1]:${a.port}/`,
      `http://[64:ff9b::127.0.0.1]:${a.port}/`,
      `http://2130706433:${a.port}/`,
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://[fd12::1]/",
    ]) {
      const refused = await refusalOf(fetchWith(STRICT)(url));
      expect(refused.always, url).toBe(false);
      expect(refused.message, url).toContain(HINT);
    }
    expect(dialled).toEqual([]);
  });
});

describe("guarded fetch: host names (resolved inside the connector)", () => {
  it("refuses localhost (resolves to 127.0.0.1) without the setting and reaches it with it", async () => {
    const url = `http://localhost:${a.port}/name`;
    const refused = await refusalOf(fetchWith(STRICT)(url));
    expect(refused.message).toMatch(/^upstream host localhost resolves to (127\.0\.0\.1|::1), a loopback address; /);
    expect(refused.message).toContain(`${HINT} "localhost" to UPSTREAM_ALLOWLIST`);
    // The caller-safe wording does not reveal what a name resolved to.
    expect(refused.publicMessage).toBe(
      'upstream host localhost resolves to a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add "localhost" to UPSTREAM_ALLOWLIST',
    );
    expect(a.hits).toEqual([]);

    const res = await fetchWith(OPEN)(url);
    expect(res.status).toBe(200);
    expect(a.hits).toEqual(["/name"]);
  });

  it("checks the address the name resolves to at connection time, and dials exactly that address", async () => {
    const answers: Record<string, string[]> = {
      "rebind.test": ["127.0.0.1"],
      "meta.test": ["169.254.169.254"],
      "mixed.test": ["127.0.0.1", "169.254.169.254"],
    };
    const calls: string[] = [];
    const resolve: Resolve = async (name) => {
      calls.push(name);
      const list = answers[name];
      if (!list) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
      return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    };

    // A name that resolves to loopback: refused without the setting, nothing reaches the server.
    const refused = await refusalOf(fetchWith(STRICT, resolve)(`http://rebind.test:${a.port}/r`));
    expect(refused.message).toContain("upstream host rebind.test resolves to 127.0.0.1, a loopback address");
    expect(a.hits).toEqual([]);
    // With the setting the connection goes to the address that was checked (the server sees it).
    const ok = await fetchWith(OPEN, resolve)(`http://rebind.test:${a.port}/r`);
    expect(ok.status).toBe(200);
    expect(a.hits).toEqual(["/r"]);
    expect(dialled).toEqual(["127.0.0.1"]);

    // A name that resolves to the metadata address: refused always, never dialled.
    dialled = [];
    const meta = await refusalOf(fetchWith(OPEN, resolve)(`http://meta.test:${a.port}/`));
    expect(meta.always).toBe(true);
    expect(meta.message).toBe(
      "upstream host meta.test resolves to 169.254.169.254, a cloud metadata address, which is always refused",
    );
    expect(meta.publicMessage).toBe(
      "upstream host meta.test resolves to a cloud metadata address, which is always refused",
    );
    // One forbidden address among several refuses the name (the attacker picks the order).
    const mixed = await refusalOf(fetchWith(OPEN, resolve)(`http://mixed.test:${a.port}/`));
    expect(mixed.always).toBe(true);
    expect(dialled).toEqual([]);
    // Resolution happens per connection, inside the connector.
    expect(calls).toEqual(["rebind.test", "rebind.test", "meta.test", "mixed.test"]);
  });

  it("refuses metadata host names before resolving them", async () => {
    const calls: string[] = [];
    const resolve: Resolve = async (name) => {
      calls.push(name);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    for (const host of ["metadata.google.internal", "METADATA.GOOGLE.INTERNAL.", "metadata.goog", "metadata"]) {
      const refused = await refusalOf(fetchWith(OPEN, resolve)(`http://${host}:${a.port}/computeMetadata/v1/`));
      expect(refused.always).toBe(true);
      expect(refused.message).toMatch(/is a cloud metadata host and always refused$/);
    }
    expect(calls).toEqual([]);
    expect(a.hits).toEqual([]);
  });
});

describe("UPSTREAM_ALLOWLIST", () => {
  it("lets a listed host reach its private address, and only that host", async () => {
    const policy = { allowPrivate: false, allowlist: [parseAllowedHost("LocalHost")!] };
    const res = await fetchWith(policy)(`http://localhost:${a.port}/listed`);
    expect(res.status).toBe(200);
    expect(a.hits).toEqual(["/listed"]);
    // The same server by another name (the IP literal) is not listed.
    const refused = await refusalOf(fetchWith(policy)(`${a.url}/unlisted`));
    expect(refused.message).toContain(HINT);
    expect(a.hits).toEqual(["/listed"]);
  });

  it("limits a host:port entry to that port", async () => {
    const policy = { allowPrivate: false, allowlist: [parseAllowedHost(`127.0.0.1:${a.port}`)!] };
    expect((await fetchWith(policy)(`${a.url}/a`)).status).toBe(200);
    await refusalOf(fetchWith(policy)(`${b.url}/b`));
    expect(a.hits).toEqual(["/a"]);
    expect(b.hits).toEqual([]);
  });

  it("parses entries: names, ports, bracketed IPv6; malformed ones are undefined", () => {
    expect(parseAllowedHost("Models.Internal.")).toEqual({ host: "models.internal" });
    expect(parseAllowedHost("ollama:11434")).toEqual({ host: "ollama", port: "11434" });
    expect(parseAllowedHost("[FD12:0::1]:8000")).toEqual({ host: "fd12:0:0:0:0:0:0:1", port: "8000" });
    expect(parseAllowedHost("[::1]")).toEqual({ host: "0:0:0:0:0:0:0:1" });
    for (const bad of ["", "::1", "[nothost]", "host:99999", "http://host", "*.corp", "a b"]) {
      expect(parseAllowedHost(bad), bad).toBeUndefined();
    }
  });
});

describe("redirects", () => {
  it("checks every redirect: one to 169.254.169.254 is refused and never contacted", async () => {
    const policy = { allowPrivate: false, allowlist: [{ host: "127.0.0.1", port: String(a.port) }] };
    // Control: a redirect is followed through the same dispatcher.
    const followed = await fetchWith(policy)(`${a.url}/redirect?to=${encodeURIComponent(`${a.url}/landed`)}`);
    expect(followed.status).toBe(200);
    expect(a.hits).toEqual([`/redirect?to=${encodeURIComponent(`${a.url}/landed`)}`, "/landed"]);

    a.hits.length = 0;
    dialled = [];
    const to = "http://169.254.169.254/latest/meta-data/iam/security-credentials/";
    const refused = await refusalOf(fetchWith(policy)(`${a.url}/redirect?to=${encodeURIComponent(to)}`));
    expect(refused.message).toBe("upstream address 169.254.169.254 is a cloud metadata address and always refused");
    expect(a.hits).toHaveLength(1);
    expect(dialled).toEqual(["127.0.0.1"]);
  });

  it("applies the policy to the redirect target: an allowed host cannot bounce to an unlisted private one", async () => {
    const policy = { allowPrivate: false, allowlist: [{ host: "127.0.0.1", port: String(a.port) }] };
    const refused = await refusalOf(fetchWith(policy)(`${a.url}/redirect?to=${encodeURIComponent(`${b.url}/inner`)}`));
    expect(refused.message).toContain(HINT);
    expect(a.hits).toHaveLength(1);
    expect(b.hits).toEqual([]);
  });
});

describe("policy from the environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it("defaults to refusing private upstreams with an empty allowlist", () => {
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
    delete process.env.UPSTREAM_ALLOWLIST;
    resetEnvCache();
    expect(policyFromEnv()).toEqual({ allowPrivate: false, allowlist: [] });
  });

  it("reads ALLOW_PRIVATE_UPSTREAMS and a comma-separated UPSTREAM_ALLOWLIST", () => {
    process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
    process.env.UPSTREAM_ALLOWLIST = " models.internal , ollama:11434,[fd12::1]:8000,";
    resetEnvCache();
    expect(policyFromEnv()).toEqual({
      allowPrivate: true,
      allowlist: [
        { host: "models.internal" },
        { host: "ollama", port: "11434" },
        { host: "fd12:0:0:0:0:0:0:1", port: "8000" },
      ],
    });
  });

  it("refuses to start with a malformed allowlist entry", () => {
    process.env.UPSTREAM_ALLOWLIST = "good.host,http://bad.host/";
    resetEnvCache();
    expect(() => env()).toThrow(/UPSTREAM_ALLOWLIST/);
  });

  it("is what the process's own guardedFetch applies, read at each connection", async () => {
    process.env.ALLOW_PRIVATE_UPSTREAMS = "false";
    delete process.env.UPSTREAM_ALLOWLIST;
    resetEnvCache();
    // A server of its own: the process's dispatcher pools connections per origin.
    const c = await startServer();
    try {
      const refused = await refusalOf(guardedFetch(`${c.url}/env`));
      expect(refused.message).toContain(HINT);
      expect(c.hits).toEqual([]);
      process.env.UPSTREAM_ALLOWLIST = `127.0.0.1:${c.port}`;
      resetEnvCache();
      const res = await guardedFetch(`${c.url}/env`);
      expect(res.status).toBe(200);
      await res.body?.cancel();
      expect(c.hits).toEqual(["/env"]);
    } finally {
      await c.close();
    }
  });
});
