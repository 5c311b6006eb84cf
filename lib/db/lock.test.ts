import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./lock";

describe("data folder lock", () => {
  it("refuses a second owner while a live process holds it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lock-"));
    // The parent process (vitest's runner) stands for another live owner.
    writeFileSync(path.join(dir, ".lock"), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/in use by process/);
  });

  it("takes over a lock left by a dead process and releases it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lock-"));
    writeFileSync(path.join(dir, ".lock"), "999999999");
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, ".lock"), "utf8")).toBe(String(process.pid));
    release();
    const again = lockDataDir(dir);
    again();
  });
});
