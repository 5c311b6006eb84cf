import { describe, expect, it } from "vitest";
import { FILE_ID_RE, newFileId, newId, randomBase62 } from "./ids";

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

  it("random base62 uses the whole alphabet without bias toward low characters", () => {
    const s = randomBase62(62_000);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Each character expected 1000 times; a modulo bias would push the first 8 to ~1250.
    for (const n of counts.values()) expect(n).toBeLessThan(1200);
  });
});
