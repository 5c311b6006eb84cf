import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { storage } from "../storage";
import { downloadFile } from "./download";
import { headerMediaType, mediaTypeProblem } from "./media-type";
import { resetSigningKeyCache, signDownload } from "./signing";

describe("media types", () => {
  it.each(["text/csv", "application/vnd.ms-excel", "text/plain; charset=utf-8", 'text/plain;a="b c";d=e', "x/y+z"])(
    "accepts %s",
    (t) => expect(mediaTypeProblem(t)).toBeUndefined(),
  );
  it.each([
    "text/plain\r\nSet-Cookie: a=b",
    "text/plain\n",
    "text",
    "text/",
    "/csv",
    "text/csv; charset",
    'text/csv; a="unterminated',
    `text/${"x".repeat(300)}`,
    "text/csv\u0000",
    "tëxt/csv",
  ])("refuses %j", (t) => expect(mediaTypeProblem(t)).toBeTruthy());

  it("serves a stored type that is not a media type as application/octet-stream", async () => {
    expect(headerMediaType("text/csv")).toBe("text/csv");
    expect(headerMediaType("text/plain\r\nX: y")).toBe("application/octet-stream");
  });
});

describe("downloads of a file whose stored type is broken", () => {
  const saved = { ...process.env };
  beforeAll(() => {
    process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "media-type-"));
    delete process.env.DATABASE_URL;
    delete process.env.STORAGE_URL;
    process.env.SIGNING_SECRET = "media-type-test-signing-secret";
    resetEnvCache();
    resetSigningKeyCache();
  });
  afterAll(() => {
    process.env = { ...saved };
    resetEnvCache();
    resetSigningKeyCache();
  });

  it("still answers 200 with a safe Content-Type and Content-Disposition", async () => {
    await storage().write("org_1/agt_1/fi_broken", Readable.from([Buffer.from("hello")]));
    const { url } = signDownload({
      storageKey: "org_1/agt_1/fi_broken",
      filename: 'evil"\r\nSet-Cookie: a=b.txt',
      contentType: `text/plain\r\nSet-Cookie: a=b${"x".repeat(8000)}`,
      baseUrl: "http://localhost",
    });
    const res = await downloadFile({ token: new URL(url).searchParams.get("token")!, range: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).not.toMatch(/[\r\n]/);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toBe("hello");
  });
});
