import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { clientIp, lastForwardedFor } from "./client-ip";

const SAVED = process.env.TRUST_PROXY;

function trustProxy(value: string | undefined) {
  if (value === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = value;
  resetEnvCache();
}

/** As the production server hands it on: the peer in x-awhs-client-ip, whatever the client sent besides. */
const request = (headers: Record<string, string>) =>
  new Request("http://0.0.0.0:3000/api/console/auth/sign-in", {
    headers: { "x-awhs-client-ip": "10.0.0.2", ...headers },
  });

describe("clientIp (the sign-in lockout's address)", () => {
  afterEach(() => trustProxy(SAVED));

  it("is the connection's peer without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    trustProxy(undefined);
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.7" }))).toBe("10.0.0.2");
    trustProxy("false");
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.7" }))).toBe("10.0.0.2");
    expect(clientIp(new Request("http://x/"))).toBe("unknown");
  });

  it("is the last X-Forwarded-For address (the one the proxy appended) with TRUST_PROXY=true", () => {
    trustProxy("true");
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.7" }))).toBe("203.0.113.7");
    // What a client sent before the proxy's entry is not believed.
    expect(clientIp(request({ "x-forwarded-for": "198.51.100.1, 203.0.113.7" }))).toBe("203.0.113.7");
    expect(clientIp(request({ "x-forwarded-for": "2001:DB8::1" }))).toBe("2001:db8::1");
  });

  it("falls back to the peer with TRUST_PROXY=true when X-Forwarded-For is missing or not an address", () => {
    trustProxy("true");
    expect(clientIp(request({}))).toBe("10.0.0.2");
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.7, not-an-ip" }))).toBe("10.0.0.2");
    expect(clientIp(request({ "x-forwarded-for": "" }))).toBe("10.0.0.2");
  });
});

describe("lastForwardedFor", () => {
  it("reads addresses with or without a port, IPv6 bracketed or bare", () => {
    expect(lastForwardedFor("1.2.3.4")).toBe("1.2.3.4");
    expect(lastForwardedFor(" 1.2.3.4:5678 ")).toBe("1.2.3.4");
    expect(lastForwardedFor("x, [2001:db8::2]:443")).toBe("2001:db8::2");
    expect(lastForwardedFor("::ffff:1.2.3.4")).toBe("::ffff:1.2.3.4");
  });

  it("refuses anything else", () => {
    for (const v of [undefined, null, "", "unknown", "1.2.3", "1.2.3.4.5", "evil.example", "1.2.3.4, ", "[::1"]) {
      expect(lastForwardedFor(v), String(v)).toBeUndefined();
    }
  });
});
