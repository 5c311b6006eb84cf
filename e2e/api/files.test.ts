// Signed download URLs (docs/api.md, Signed downloads) through real HTTP. The test process signs links the way any
// other instance of the service would: with the key it shares with the server (the embedded
// data folder's signing-secret, or the key derived from DATABASE_URL), which proves that two
// processes agree on it.
import { respelledSignatures } from "../../test-support/signatures";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { resetSigningKeyCache, signDownload } from "../../lib/files/signing";
import { storageKeyFor } from "../../lib/files/upload";
import { newFileId } from "../../lib/ids";
import { onS3 } from "./s3-server";
import { createAgent, ctx, ECHO_AGENT, expectError, mintKey, type ApiResponse } from "./helpers";

const SAVED = { ...process.env };

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, body, text: "" } satisfies ApiResponse & { bytes: Buffer };
}

describe("signed downloads", () => {
  const content = randomBytes(300_000);
  const filename = 'résumé "final".pdf';
  let file: { file_id: string; size_bytes: number; content_type: string; filename: string };
  let storageKey: string;
  const sign = (opts: { ttlSeconds?: number; storageKey?: string } = {}) =>
    signDownload({
      storageKey: opts.storageKey ?? storageKey,
      filename: file.filename,
      contentType: file.content_type,
      baseUrl: ctx().baseUrl,
      ttlSeconds: opts.ttlSeconds,
    });

  beforeAll(async () => {
    const { orgA, target } = ctx();
    delete process.env.SIGNING_SECRET;
    if (target.databaseUrl) process.env.DATABASE_URL = target.databaseUrl;
    else process.env.DATA_DIR = target.dataDir!;
    resetEnvCache();
    resetSigningKeyCache();

    const key = (await mintKey(orgA)).key;
    const agent = await createAgent(orgA, ECHO_AGENT);
    const form = new FormData();
    form.append("file", new Blob([content], { type: "application/pdf" }), filename);
    const res = await fetch(`${ctx().baseUrl}/api/agents/${agent.agent_id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    file = await res.json();
    storageKey = storageKeyFor({ organizationId: orgA.organization_id, agentId: agent.agent_id, fileId: file.file_id });
  });

  afterAll(() => {
    process.env = { ...SAVED };
    resetEnvCache();
    resetSigningKeyCache();
  });

  it("streams the uploaded bytes with type, length and filename, without an Access Key", async () => {
    const res = await get(sign().url);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(content)).toBe(true);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(content.length));
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    );
    expect(file.filename).toBe(filename);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    // On the local disk the service streams the bytes; on S3 the bucket does (a presigned URL on
    // another origin, where the bytes cannot act as this service's pages).
    if (!onS3()) expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.runIf(onS3())("on S3 storage, redirects to a presigned GET of the object valid 15 minutes", async () => {
    const res = await fetch(sign().url, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(process.env.AWS_ENDPOINT_URL_S3);
    expect(location.pathname.endsWith(`/${storageKey}`)).toBe(true);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(location.searchParams.get("response-content-type")).toBe("application/pdf");
    expect(location.searchParams.get("response-content-disposition")).toMatch(/^attachment; /);
    // A Range is answered by the service itself, with its own range rules (the tests below).
    const ranged = await fetch(sign().url, { redirect: "manual", headers: { range: "bytes=0-9" } });
    expect([ranged.status, ranged.headers.get("content-range")]).toEqual([206, `bytes 0-9/${content.length}`]);
    await ranged.arrayBuffer();
  });

  it("serves a byte range with 206 and Content-Range", async () => {
    const url = sign().url;
    const mid = await get(url, { range: "bytes=100-199" });
    expect(mid.status).toBe(206);
    expect(mid.headers.get("content-range")).toBe(`bytes 100-199/${content.length}`);
    expect(mid.headers.get("content-length")).toBe("100");
    expect(mid.headers.get("x-awhs-content-length")).toBeNull();
    expect(mid.bytes.equals(content.subarray(100, 200))).toBe(true);
    const tail = await get(url, { range: "bytes=-10" });
    expect([tail.status, tail.bytes.equals(content.subarray(-10))]).toEqual([206, true]);
    const open = await get(url, { range: `bytes=${content.length - 5}-` });
    expect([open.status, open.bytes.equals(content.subarray(-5))]).toEqual([206, true]);
  });

  it("answers 416 for a range past the end and the whole file for a range it does not support", async () => {
    const url = sign().url;
    expectError(await get(url, { range: `bytes=${content.length}-` }), 416, "range_not_satisfiable");
    const multi = await get(url, { range: "bytes=0-1,5-6" });
    expect([multi.status, multi.bytes.length]).toEqual([200, content.length]);
  });

  it("refuses an expired link with 403 url_expired", async () => {
    expectError(await get(sign({ ttlSeconds: -1 }).url), 403, "url_expired");
  });

  it("refuses a tampered link with 403 invalid_signature", async () => {
    const url = new URL(sign().url);
    const [payload, sig] = url.searchParams.get("token")!.split(".") as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const longer = Buffer.from(JSON.stringify({ ...decoded, e: decoded.e + 86_400 })).toString("base64url");
    const other = Buffer.from(JSON.stringify({ ...decoded, k: `${decoded.k}x` })).toString("base64url");
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    // Another spelling of the same signature bytes (unused bits of the last character, a stray `*`, ...) is no signature.
    const respelled = respelledSignatures(sig).map((s) => `${payload}.${s}`);
    for (const token of [`${longer}.${sig}`, `${other}.${sig}`, `${payload}.${flipped}`, "garbage", ...respelled]) {
      url.searchParams.set("token", token);
      expectError(await get(url.toString()), 403, "invalid_signature");
    }
  });

  it("refuses a link signed with another secret", async () => {
    process.env.SIGNING_SECRET = "not-the-server-secret-at-all";
    resetEnvCache();
    resetSigningKeyCache();
    try {
      expectError(await get(sign().url), 403, "invalid_signature");
    } finally {
      delete process.env.SIGNING_SECRET;
      resetEnvCache();
      resetSigningKeyCache();
    }
  });

  it("answers 400 invalid_request without a token", async () => {
    expectError(await get(`${ctx().baseUrl}/api/files/download`), 400, "invalid_request");
  });

  it("answers 404 for a validly signed link to bytes that no longer exist", async () => {
    const gone = storageKey.replace(file.file_id, newFileId());
    expectError(await get(sign({ storageKey: gone }).url), 404, "not_found");
  });
});
