import { describe, expect, it } from "vitest";
import { ACCESS_KEY_RE, bearerToken, generateSecret, hashPassword, safeEqual, sha256, verifyPassword } from "./secrets";

describe("secrets", () => {
  it("generates ak_ keys of 43 base62 characters (>= 256 bits) with a short display start", () => {
    const a = generateSecret("ak");
    const b = generateSecret("ak");
    expect(a.raw).toMatch(ACCESS_KEY_RE);
    expect(a.raw).not.toBe(b.raw);
    expect(a.hash).toBe(sha256(a.raw));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.start).toBe(a.raw.slice(0, 8));
  });

  it("compares in constant time and refuses different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });

  it("verifies scrypt password hashes and rejects wrong passwords and malformed hashes", async () => {
    const h = await hashPassword("hunter22hunter");
    expect(h).not.toContain("hunter22hunter");
    expect(await verifyPassword("hunter22hunter", h)).toBe(true);
    expect(await verifyPassword("hunter22hunteR", h)).toBe(false);
    expect(await verifyPassword("x", "plain")).toBe(false);
  });

  it("reads only the Bearer scheme", () => {
    expect(bearerToken("Bearer ak_x")).toBe("ak_x");
    expect(bearerToken("bearer  ak_x ")).toBe("ak_x");
    expect(bearerToken("Basic YWJj")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});
