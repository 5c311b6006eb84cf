import { describe, expect, it } from "vitest";
import { isPagePath, pageCsp, securityHeaders } from "./security-headers";

describe("securityHeaders", () => {
  it("an API answer: a policy that allows nothing and no framing, nosniff, DENY, no HSTS over http", () => {
    expect(securityHeaders({ pathname: "/api/health", https: false })).toEqual({
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    });
  });

  it("a page: scripts only by the answer's nonce, no inline handlers, no framing", () => {
    const csp = securityHeaders({ pathname: "/keys", https: false, nonce: "abc123==" })["content-security-policy"];
    expect(csp).toBe(pageCsp("abc123==", false));
    expect(csp).toContain("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("the invitation pages, whose URL holds a token, send no referrer", () => {
    expect(securityHeaders({ pathname: "/invite/tok_x", https: false, nonce: "n" })["referrer-policy"]).toBe(
      "no-referrer",
    );
    expect(securityHeaders({ pathname: "/invited", https: false, nonce: "n" })["referrer-policy"]).toBe(
      "strict-origin-when-cross-origin",
    );
  });

  it("HSTS and upgrade-insecure-requests only when PUBLIC_URL is https", () => {
    const https = securityHeaders({ pathname: "/", https: true, nonce: "n" });
    expect(https["strict-transport-security"]).toBe("max-age=31536000");
    expect(https["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(securityHeaders({ pathname: "/", https: false })["strict-transport-security"]).toBeUndefined();
  });

  it.each([
    ["/", true],
    ["/keys", true],
    ["/docs/api", true],
    ["/invite/x", true],
    ["/apiary", true],
    ["/api", false],
    ["/api/health", false],
    ["/_next/static/chunks/a.js", false],
  ])("%s is a page: %s", (pathname, page) => {
    expect(isPagePath(pathname)).toBe(page);
  });
});
