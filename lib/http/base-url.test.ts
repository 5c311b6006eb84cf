import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { baseUrl, validHost } from "./base-url";

const NAMES = ["PUBLIC_URL", "TRUST_PROXY", "HOST", "PORT"] as const;
const SAVED = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));

function setEnv(values: Partial<Record<(typeof NAMES)[number], string>>) {
  for (const n of NAMES) {
    if (values[n] === undefined) delete process.env[n];
    else process.env[n] = values[n];
  }
  resetEnvCache();
}

/** A request as Next hands it to a route under the custom server: its URL is the listen address. */
const request = (headers: Record<string, string>) => new Request("http://0.0.0.0:3000/api/x?a=1", { headers });

describe("baseUrl", () => {
  afterEach(() => {
    for (const n of NAMES) {
      if (SAVED[n] === undefined) delete process.env[n];
      else process.env[n] = SAVED[n];
    }
    resetEnvCache();
  });

  it("uses the Host the caller sent, over http, not the listen address in the request's URL", () => {
    setEnv({ PORT: "3000" });
    expect(baseUrl(request({ host: "hooks.example.com:8080" }))).toBe("http://hooks.example.com:8080");
    expect(baseUrl(request({ host: "10.0.0.5:3000" }))).toBe("http://10.0.0.5:3000");
    expect(baseUrl(request({ host: "[::1]:3000" }))).toBe("http://[::1]:3000");
    expect(baseUrl(request({ host: "Example.TEST" }))).toBe("http://example.test");
  });

  it("prefers PUBLIC_URL, without a trailing slash, over every header", () => {
    setEnv({ PUBLIC_URL: "https://hooks.example.com/", TRUST_PROXY: "true" });
    const req = request({ host: "internal:3000", "x-forwarded-host": "proxy.example", "x-forwarded-proto": "http" });
    expect(baseUrl(req)).toBe("https://hooks.example.com");
  });

  it("ignores X-Forwarded-Host and X-Forwarded-Proto unless TRUST_PROXY is true", () => {
    const req = request({
      host: "direct.example:3000",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    setEnv({});
    expect(baseUrl(req)).toBe("http://direct.example:3000");
    setEnv({ TRUST_PROXY: "false" });
    expect(baseUrl(req)).toBe("http://direct.example:3000");
    setEnv({ TRUST_PROXY: "true" });
    expect(baseUrl(req)).toBe("https://evil.example");
  });

  it("behind a trusted proxy takes the first forwarded value, and keeps Host when one is missing or bad", () => {
    setEnv({ TRUST_PROXY: "true" });
    const chain = request({
      host: "internal:3000",
      "x-forwarded-host": "public.example, proxy2.internal",
      "x-forwarded-proto": "https, http",
    });
    expect(baseUrl(chain)).toBe("https://public.example");
    expect(baseUrl(request({ host: "internal:3000", "x-forwarded-proto": "https" }))).toBe("https://internal:3000");
    expect(baseUrl(request({ host: "internal:3000", "x-forwarded-host": "a/b@evil" }))).toBe("http://internal:3000");
    expect(baseUrl(request({ host: "internal:3000", "x-forwarded-proto": "javascript" }))).toBe("http://internal:3000");
  });

  it("falls back to the listen address when Host is missing or not a host[:port]", () => {
    setEnv({ HOST: "0.0.0.0", PORT: "4010" });
    for (const host of [undefined, "", "evil.example/path", "user@evil.example", "a b", "evil.example:99999", "x:0"]) {
      const req = request(host === undefined ? {} : { host });
      expect(baseUrl(req), String(host)).toBe("http://localhost:4010");
    }
    setEnv({ HOST: "127.0.0.2", PORT: "4010" });
    expect(baseUrl(request({ host: "bad host" }))).toBe("http://127.0.0.2:4010");
    setEnv({ HOST: "::1", PORT: "4010" });
    expect(baseUrl(request({}))).toBe("http://[::1]:4010");
  });
});

describe("validHost", () => {
  it("accepts names, IPv4 and bracketed IPv6, with an optional port", () => {
    for (const ok of [
      "localhost",
      "a.b-c.example",
      "svc_1.internal:8080",
      "192.168.1.10:3000",
      "[2001:db8::1]",
      "[::1]:1",
      "example.com.:65535",
    ]) {
      expect(validHost(ok), ok).toBe(ok.toLowerCase());
    }
  });

  it("refuses anything a link could be forged with", () => {
    const bad = [
      "evil.example/x",
      "evil.example?x",
      "evil.example#x",
      "user:pass@evil.example",
      "evil.example:80:80",
      "evil.example:",
      "evil.example:0",
      "evil.example:65536",
      "[not-ipv6]",
      "::1",
      "-lead.example",
      "a..b",
      "999.1.1.1",
      "1.2.3",
      "ex ample",
      "evil.example\r\nx: y",
      "%65vil.example",
      "x".repeat(300),
    ];
    for (const b of bad) expect(validHost(b), b).toBeUndefined();
  });
});
