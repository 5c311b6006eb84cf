import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { createLocalStorage, StorageFaultError } from "./index";

const freshRoot = () => mkdtempSync(path.join(os.tmpdir(), "storage-"));
const tmpEntries = (root: string) => (existsSync(path.join(root, ".tmp")) ? readdirSync(path.join(root, ".tmp")) : []);

describe("local storage", () => {
  it("writes a stream under its key and reads it back whole or by inclusive range", async () => {
    const root = freshRoot();
    const s = createLocalStorage(root);
    const { size } = await s.write("org_1/agt_1/fi_a", Readable.from([Buffer.from("hello "), Buffer.from("world")]));
    expect(size).toBe(11);
    expect(await s.size("org_1/agt_1/fi_a")).toBe(11);
    expect(await text(s.read("org_1/agt_1/fi_a"))).toBe("hello world");
    expect(await text(s.read("org_1/agt_1/fi_a", { start: 6, end: 8 }))).toBe("wor");
    expect(await text(s.read("org_1/agt_1/fi_a", { start: 6 }))).toBe("world");
    expect(tmpEntries(root)).toEqual([]);
  });

  it("accepts an async iterable of byte chunks", async () => {
    const s = createLocalStorage(freshRoot());
    async function* chunks() {
      yield new TextEncoder().encode("ab");
      yield new TextEncoder().encode("c");
    }
    expect(await s.write("k", chunks())).toEqual({ size: 3 });
    expect(await text(s.read("k"))).toBe("abc");
  });

  it("removes the partial bytes and rejects when the write is aborted mid-stream", async () => {
    const root = freshRoot();
    const s = createLocalStorage(root);
    const source = new PassThrough();
    const ac = new AbortController();
    const done = s.write("org_1/agt_1/fi_b", source, { signal: ac.signal });
    source.write(Buffer.alloc(64 * 1024, 1));
    await new Promise((r) => setImmediate(r));
    ac.abort();
    await expect(done).rejects.toThrow(/abort/i);
    expect(existsSync(path.join(root, "org_1/agt_1/fi_b"))).toBe(false);
    expect(tmpEntries(root)).toEqual([]);
  });

  it("removes the partial bytes and rejects when the source fails mid-stream", async () => {
    const root = freshRoot();
    const s = createLocalStorage(root);
    async function* failing() {
      yield Buffer.alloc(1024, 2);
      throw new Error("client went away");
    }
    await expect(s.write("k2", failing())).rejects.toThrow("client went away");
    expect(existsSync(path.join(root, "k2"))).toBe(false);
    expect(tmpEntries(root)).toEqual([]);
  });

  it("fails writes past the injected fault limit and keeps nothing of them", async () => {
    const root = freshRoot();
    const s = createLocalStorage(root, { faultAfterBytes: 1000 });
    await expect(s.write("big", Readable.from([Buffer.alloc(800), Buffer.alloc(800)]))).rejects.toBeInstanceOf(
      StorageFaultError,
    );
    expect(existsSync(path.join(root, "big"))).toBe(false);
    expect(tmpEntries(root)).toEqual([]);
    expect(await s.write("small", Readable.from([Buffer.alloc(1000)]))).toEqual({ size: 1000 });
  });

  it("replaces an existing key atomically and removes keys idempotently", async () => {
    const root = freshRoot();
    const s = createLocalStorage(root);
    await s.write("k", Readable.from([Buffer.from("one")]));
    await s.write("k", Readable.from([Buffer.from("two")]));
    expect(readFileSync(path.join(root, "k"), "utf8")).toBe("two");
    await s.remove("k");
    await s.remove("k");
    await expect(s.size("k")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses keys that could leave the storage root", async () => {
    const s = createLocalStorage(freshRoot());
    for (const key of ["../escape", "/abs", "a/../../b", "a//b", "", "a/./b"]) {
      expect(() => s.read(key), key).toThrow(/Invalid storage key/);
      await expect(s.write(key, Readable.from([Buffer.from("x")])), key).rejects.toThrow(/Invalid storage key/);
    }
  });

  it("sweeps temp files abandoned by a crashed process on the first write, keeping recent ones", async () => {
    const root = freshRoot();
    mkdirSync(path.join(root, ".tmp"), { recursive: true });
    const old = path.join(root, ".tmp", "old.part");
    const recent = path.join(root, ".tmp", "recent.part");
    writeFileSync(old, "stale");
    writeFileSync(recent, "in flight elsewhere");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    const s = createLocalStorage(root, { staleTempMs: 60 * 60 * 1000 });
    await s.write("k", Readable.from([Buffer.from("x")]));
    expect(tmpEntries(root)).toEqual(["recent.part"]);
  });
});
