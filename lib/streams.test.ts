// Reading a Node stream with a byte cap (a hot route's request body, lib/http/body.ts).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readNodeStreamCapped } from "./streams";

const tooLarge = () => new Error("too large");
const cut = () => new Error("cut");

describe("readNodeStreamCapped", () => {
  it("reads the whole stream; one byte past the cap is too large", async () => {
    const body = new PassThrough();
    const read = readNodeStreamCapped(body, 10, tooLarge, cut);
    body.write("hello ");
    body.end("world");
    await expect(read).rejects.toThrow("too large"); // 11 bytes: one past the cap
    const fits = new PassThrough();
    const ok = readNodeStreamCapped(fits, 11, tooLarge, cut);
    fits.write("hello ");
    fits.end("world");
    expect((await ok).toString("utf8")).toBe("hello world");
  });

  it("an empty stream is an empty buffer", async () => {
    const body = new PassThrough();
    const read = readNodeStreamCapped(body, 10, tooLarge, cut);
    body.end();
    expect((await read).length).toBe(0);
  });

  it("past the cap, the rest flows away unread: the stream still reaches its end", async () => {
    const body = new PassThrough({ highWaterMark: 16 });
    const read = readNodeStreamCapped(body, 4, tooLarge, cut);
    await new Promise<void>((resolve) => body.write("12345", () => resolve()));
    await expect(read).rejects.toThrow("too large");
    const ended = new Promise((resolve) => body.once("end", resolve));
    for (let i = 0; i < 100; i++) body.write("x".repeat(64)); // far more than its buffer holds
    body.end();
    await ended;
    expect(body.listenerCount("data")).toBe(0);
  });

  it("a stream that fails or closes before its end is cut", async () => {
    const failing = new PassThrough();
    const read = readNodeStreamCapped(failing, 100, tooLarge, cut);
    failing.write("part");
    failing.destroy(new Error("socket hang up"));
    await expect(read).rejects.toThrow("cut");

    const closing = new PassThrough();
    const closed = readNodeStreamCapped(closing, 100, tooLarge, cut);
    closing.write("part");
    closing.destroy();
    await expect(closed).rejects.toThrow("cut");
  });
});
