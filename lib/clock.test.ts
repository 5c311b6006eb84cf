import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { now, resetClock, shiftClock } from "./clock";
import { resetEnvCache } from "./env";

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
  resetClock();
});

describe("the clock of time-bound rules", () => {
  it("moves in tests and comes back", () => {
    shiftClock(3_600_000);
    expect(now().getTime() - Date.now()).toBeGreaterThanOrEqual(3_599_000);
    resetClock();
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000);
  });

  it("cannot be shifted in a production process", () => {
    vi.stubEnv("NODE_ENV", "production");
    resetEnvCache();
    expect(() => shiftClock(1)).toThrow("cannot be shifted in production");
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000);
  });

  it("runs ahead by TEST_CLOCK_FILE's milliseconds, read on each use, and ignores what is not a number", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "clock-")), "offset");
    vi.stubEnv("TEST_CLOCK_FILE", file);
    resetEnvCache();
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000); // no file yet
    writeFileSync(file, "7200000\n");
    expect(now().getTime() - Date.now()).toBeGreaterThanOrEqual(7_199_000);
    writeFileSync(file, "soon");
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000);
  });
});
