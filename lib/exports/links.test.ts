import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { ApiError } from "../errors";
import { signExportToken, verifyExportToken } from "./links";

const SAVED = { ...process.env };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "awhs-links-"));
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  delete process.env.AUTH_SECRET;
  resetEnvCache();
});

afterAll(() => {
  process.env = { ...SAVED };
  resetEnvCache();
  rmSync(dir, { recursive: true, force: true });
});

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? e.code : String(e);
  }
  return "accepted";
};

describe("export download links", () => {
  const names = { exportId: "exp_a", organizationId: "org_a" };

  it("accepts its own token for 15 minutes, then answers url_expired", () => {
    const now = Date.UTC(2026, 10, 27, 9, 0, 0);
    const { token, expiresAt } = signExportToken({ ...names, now });
    expect(expiresAt.toISOString()).toBe("2026-11-27T09:15:00.000Z");
    expect(codeOf(() => verifyExportToken({ ...names, token, now: now + 14 * 60_000 }))).toBe("accepted");
    expect(codeOf(() => verifyExportToken({ ...names, token, now: now + 15 * 60_000 }))).toBe("url_expired");
  });

  it("refuses a token of another export or organization, an altered one and garbage as invalid_signature", () => {
    const { token } = signExportToken(names);
    expect(codeOf(() => verifyExportToken({ ...names, exportId: "exp_b", token }))).toBe("invalid_signature");
    expect(codeOf(() => verifyExportToken({ ...names, organizationId: "org_b", token }))).toBe("invalid_signature");
    const [payload, sig] = token.split(".");
    const later = Buffer.from(JSON.stringify({ x: "exp_a", o: "org_a", e: 9_999_999_999 })).toString("base64url");
    expect(codeOf(() => verifyExportToken({ ...names, token: `${later}.${sig}` }))).toBe("invalid_signature");
    expect(codeOf(() => verifyExportToken({ ...names, token: `${payload}.${sig}x` }))).toBe("invalid_signature");
    for (const bad of ["", ".", "a.b.c", "x".repeat(500)]) {
      expect(codeOf(() => verifyExportToken({ ...names, token: bad }))).toBe("invalid_signature");
    }
  });
});
