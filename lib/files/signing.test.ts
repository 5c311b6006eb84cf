import { respelledSignatures } from "../../test-support/signatures";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { ApiError } from "../errors";
import { resetSigningKeyCache, signDownload, verifyDownload } from "./signing";

const SAVED = { ...process.env };
const file = { storageKey: "org_1/agt_1/fi_0123", filename: "report é.csv", contentType: "text/csv" };

function useEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  resetSigningKeyCache();
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("signed download URLs", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "signing-"));
    useEnv({ DATA_DIR: dataDir, SIGNING_SECRET: undefined, DATABASE_URL: undefined });
  });
  afterEach(() => {
    process.env = { ...SAVED };
    resetEnvCache();
    resetSigningKeyCache();
  });

  it("signs a URL under the base URL that verifies back to the file and expires in 15 minutes", () => {
    const before = Date.now();
    const signed = signDownload({ ...file, baseUrl: "https://files.example.com/" });
    expect(signed.url.startsWith("https://files.example.com/api/files/download?token=")).toBe(true);
    const expires = Date.parse(signed.url_expires_at);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
    expect(expires).toBeLessThanOrEqual(before + 900_000);
    const v = verifyDownload(tokenOf(signed.url));
    expect(v).toMatchObject(file);
    expect(v.expiresAt.toISOString()).toBe(signed.url_expires_at);
  });

  it("refuses an expired link with url_expired", () => {
    const signed = signDownload({ ...file, baseUrl: "http://x", ttlSeconds: 60 });
    const e = apiErrorOf(() => verifyDownload(tokenOf(signed.url), Date.parse(signed.url_expires_at)));
    expect([e.status, e.code]).toEqual([403, "url_expired"]);
  });

  it("refuses a tampered payload, signature or shape with invalid_signature", () => {
    const token = tokenOf(signDownload({ ...file, baseUrl: "http://x" }).url);
    const [payload, sig] = token.split(".") as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ k: "org_2/agt_2/fi_9", n: "x", t: "text/plain", e: 9_999_999_999 }),
    ).toString("base64url");
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    for (const bad of [
      `${forged}.${sig}`,
      `${payload}.${flipped}`,
      ...respelledSignatures(sig).map((s) => `${payload}.${s}`),
      payload,
      `${payload}.${sig}.x`,
      `${payload}.`,
      "",
    ]) {
      const e = apiErrorOf(() => verifyDownload(bad));
      expect([e.status, e.code], bad).toEqual([403, "invalid_signature"]);
    }
  });

  it("keeps a generated secret in DATA_DIR/signing-secret with mode 0600 and reuses it", () => {
    const token = tokenOf(signDownload({ ...file, baseUrl: "http://x" }).url);
    const secretFile = path.join(dataDir, "signing-secret");
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretFile, "utf8").length).toBeGreaterThanOrEqual(32);
    resetSigningKeyCache(); // as a restarted process would
    expect(verifyDownload(token).storageKey).toBe(file.storageKey);
  });

  it("does not accept links signed with another secret", () => {
    const token = tokenOf(signDownload({ ...file, baseUrl: "http://x" }).url);
    useEnv({ SIGNING_SECRET: "another-secret-of-enough-length" });
    expect(apiErrorOf(() => verifyDownload(token)).code).toBe("invalid_signature");
  });

  it("derives the same key on every instance of one PostgreSQL database, whatever host they use", () => {
    useEnv({ DATABASE_URL: "postgres://app:pw@db-primary:5432/aws" });
    const token = tokenOf(signDownload({ ...file, baseUrl: "http://x" }).url);
    useEnv({ DATABASE_URL: "postgresql://app:pw@pgbouncer.internal:6432/aws" });
    expect(verifyDownload(token).storageKey).toBe(file.storageKey);
    useEnv({ DATABASE_URL: "postgres://app:other@db-primary:5432/aws" });
    expect(apiErrorOf(() => verifyDownload(token)).code).toBe("invalid_signature");
  });
});
