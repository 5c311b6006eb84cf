import { describe, expect, it } from "vitest";
import { FILE_ID_FORMAT, FILE_ID_RE, idFormat, idPattern } from "./id-format";
import { newFileId, newId, randomBase62 } from "./ids";

describe("ids", () => {
  it("file ids are fi_ plus exactly 32 lowercase hex characters", () => {
    for (let i = 0; i < 100; i++) expect(newFileId()).toMatch(FILE_ID_RE);
  });

  it("prefixed ids are URL-safe, unique and sort by creation time", async () => {
    const first = newId("msg");
    await new Promise((r) => setTimeout(r, 5));
    const later = Array.from({ length: 50 }, () => newId("msg"));
    expect(new Set(later).size).toBe(50);
    for (const id of later) {
      expect(id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
      expect(id > first).toBe(true);
    }
  });

  it("the shapes that validation messages describe are the shapes of the ids made", () => {
    for (const prefix of ["proj", "agt", "sess", "run"] as const) {
      for (let i = 0; i < 50; i++) expect(newId(prefix)).toMatch(idPattern(prefix));
      expect(`${prefix}_nope`).not.toMatch(idPattern(prefix));
      expect(idFormat(prefix)).toBe(`${prefix}_ followed by 22 letters and digits`);
    }
    expect(FILE_ID_FORMAT).toMatch(/^fi_ followed by 32 lowercase hexadecimal characters/);
    for (const bad of ["fi_nope", `fi_${"A".repeat(32)}`, `fi_${"0".repeat(31)}`]) expect(bad).not.toMatch(FILE_ID_RE);
  });

  it("random base62 uses the whole alphabet without bias toward low characters", () => {
    const s = randomBase62(62_000);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Each character expected 1000 times; a modulo bias would push the first 8 to ~1250.
    for (const n of counts.values()) expect(n).toBeLessThan(1200);
  });
});
