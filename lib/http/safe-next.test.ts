import { describe, expect, it } from "vitest";
import {
  EVIL_HOST,
  hasSpaceOrControl,
  OPEN_REDIRECT_ATTEMPTS,
  SAFE_NEXT_PATHS,
} from "../../test-support/redirect-bypasses";
import { safeNext } from "./safe-next";

const ORIGIN = "https://dash.example.com";

/** What a browser does with the answer: resolve it against the page it is on. */
function expectOnSite(result: string) {
  expect(result.startsWith("/"), result).toBe(true);
  // No "//" or "/\" (another host to a browser) and no whitespace or control character that a
  // URL parser would drop or that cannot go into a Location header.
  expect(result, result).not.toMatch(/^\/[/\\]/);
  expect(hasSpaceOrControl(result), JSON.stringify(result)).toBe(false);
  const url = new URL(result, ORIGIN);
  expect(url.origin, result).toBe(ORIGIN);
  expect(url.href, result).not.toContain(`//${EVIL_HOST}`);
}

describe("safeNext", () => {
  it.each(OPEN_REDIRECT_ATTEMPTS.map((v) => [JSON.stringify(v).slice(0, 60), v]))(
    "keeps %s on the site",
    (_, value) => {
      expectOnSite(safeNext(value, ORIGIN));
      expectOnSite(safeNext(value));
    },
  );

  it.each(SAFE_NEXT_PATHS)("keeps the path %j as %j", (value, expected) => {
    expect(safeNext(value, ORIGIN)).toBe(expected);
    expect(safeNext(value)).toBe(expected);
  });

  it("accepts an absolute URL of the site itself as its path, and nothing of another origin", () => {
    expect(safeNext(`${ORIGIN}/runs?status=failed`, ORIGIN)).toBe("/runs?status=failed");
    expect(safeNext("http://dash.example.com/runs", ORIGIN)).toBe("/"); // another scheme
    expect(safeNext("https://dash.example.com:8443/runs", ORIGIN)).toBe("/"); // another port
    expect(safeNext("https://dash.example.com.evil.example/runs", ORIGIN)).toBe("/");
  });

  it("sends anything else home: absent, not a string, another site", () => {
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext("")).toBe("/");
    expect(safeNext(["/keys"] as unknown as string)).toBe("/");
    expect(safeNext("https://evil.example/keys", ORIGIN)).toBe("/");
    expect(safeNext("//evil.example", ORIGIN)).toBe("/");
    expect(safeNext(`/${"a".repeat(10_000)}`, ORIGIN)).toBe("/");
  });
});
