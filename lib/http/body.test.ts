import { describe, expect, it } from "vitest";
import { readBodyLimited, readJson } from "./body";

function streamingRequest(chunks: number, chunkSize: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(chunkSize).fill(32));
    },
  });
  const req = new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { req, pulled: () => pulled };
}

describe("size-limited bodies", () => {
  it("stops reading a chunked body as soon as it passes the limit", async () => {
    const s = streamingRequest(800, 64 * 1024); // 50 MiB offered
    await expect(readBodyLimited(s.req, 1024 * 1024)).rejects.toMatchObject({ code: "payload_too_large", status: 413 });
    // 1 MiB = 16 chunks; a little read-ahead is allowed, not the whole body.
    expect(s.pulled()).toBeLessThan(40);
  });

  it("refuses a declared Content-Length above the limit without reading", async () => {
    const s = streamingRequest(800, 64 * 1024, { "content-length": String(50 * 1024 * 1024) });
    await expect(readBodyLimited(s.req, 1024 * 1024)).rejects.toMatchObject({ code: "payload_too_large" });
    expect(s.pulled()).toBeLessThanOrEqual(1);
  });

  it("accepts a body of exactly the limit", async () => {
    const s = streamingRequest(16, 64 * 1024);
    expect((await readBodyLimited(s.req, 1024 * 1024)).byteLength).toBe(1024 * 1024);
  });

  it("maps bad JSON, empty bodies and other media types to their codes", async () => {
    const mk = (body: string, type = "application/json") =>
      new Request("http://x/", { method: "POST", body, headers: { "content-type": type } });
    await expect(readJson(mk("{"))).rejects.toMatchObject({ code: "invalid_json", status: 400 });
    await expect(readJson(mk(""))).rejects.toMatchObject({ code: "invalid_json" });
    await expect(readJson(mk("{}", "text/plain"))).rejects.toMatchObject({
      code: "unsupported_media_type",
      status: 415,
    });
    expect(await readJson(mk('{"a":1}', "application/json; charset=utf-8"))).toEqual({ a: 1 });
  });
});
