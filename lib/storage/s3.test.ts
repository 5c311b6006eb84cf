// The S3 storage against a real S3-compatible server (s3rver from npm, e2e/api/s3-server.ts): the same
// contract as the local disk (write, ranged read, size, remove, atomic abort), presigned downloads,
// and the tus store's object names.
import { randomBytes } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@tus/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, S3_TEST_BUCKET, type S3TestServer } from "../../e2e/api/s3-server";
import { EnvSchema } from "../env";
import { assertKey, StorageFaultError, type Storage } from "./index";
import { createS3Storage, parseS3Url, PrefixedS3Store, s3ClientConfig } from "./s3";

let s3: S3TestServer;
let client: S3Client;
const config = () => s3ClientConfig(EnvSchema.parse({ ...s3.env() }));

function make(prefix: string, faultAfterBytes?: number): Storage {
  return createS3Storage({
    client,
    bucket: S3_TEST_BUCKET,
    prefix,
    faultAfterBytes,
    assertKey,
    faultError: (n) => new StorageFaultError(n),
  });
}

async function keysUnder(prefix: string): Promise<string[]> {
  const res = await client.send(new ListObjectsV2Command({ Bucket: S3_TEST_BUCKET, Prefix: prefix }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

async function pendingUploads(prefix: string) {
  const res = await client.send(new ListMultipartUploadsCommand({ Bucket: S3_TEST_BUCKET, Prefix: prefix }));
  return res.Uploads ?? [];
}

beforeAll(async () => {
  s3 = await startS3Server();
  client = new S3Client(config());
});

afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

describe("STORAGE_URL", () => {
  it("parses bucket and prefix, and the env schema accepts only file: and s3:// URLs", () => {
    expect(parseS3Url("s3://bucket")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseS3Url("s3://bucket/a/b/")).toEqual({ bucket: "bucket", prefix: "a/b/" });
    expect(EnvSchema.safeParse({ STORAGE_URL: "file:" }).success).toBe(true);
    expect(EnvSchema.safeParse({ STORAGE_URL: "s3://my-bucket/files" }).success).toBe(true);
    expect(EnvSchema.safeParse({ STORAGE_URL: "gs://bucket" }).success).toBe(false);
    expect(EnvSchema.safeParse({ STORAGE_URL: "s3://B_ad" }).success).toBe(false);
  });
});

describe("S3 storage", () => {
  it("writes a multipart stream under prefix/key and reads it back whole, by inclusive range and open range", async () => {
    const s = make("unit-a/");
    // Larger than one 5 MiB part: a multipart upload, fed from a stream.
    const content = randomBytes(6 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(content.length / 65536) }, (_, i) =>
      content.subarray(i * 65536, (i + 1) * 65536),
    );
    const { size } = await s.write("org_1/agt_1/fi_a", Readable.from(chunks));
    expect(size).toBe(content.length);
    expect(await s.size("org_1/agt_1/fi_a")).toBe(content.length);
    expect((await buffer(s.read("org_1/agt_1/fi_a"))).equals(content)).toBe(true);
    expect((await buffer(s.read("org_1/agt_1/fi_a", { start: 10, end: 19 }))).equals(content.subarray(10, 20))).toBe(
      true,
    );
    const tail = await buffer(s.read("org_1/agt_1/fi_a", { start: content.length - 5 }));
    expect(tail.equals(content.subarray(content.length - 5))).toBe(true);
    expect(await keysUnder("unit-a/")).toEqual(["unit-a/org_1/agt_1/fi_a"]);
    expect(await pendingUploads("unit-a/")).toEqual([]);
  });

  it("accepts an async iterable, removes idempotently, and reports a missing key as ENOENT", async () => {
    const s = make("unit-b/");
    async function* chunks() {
      yield new TextEncoder().encode("ab");
      yield new TextEncoder().encode("c");
    }
    expect(await s.write("k", chunks())).toEqual({ size: 3 });
    expect(await text(s.read("k"))).toBe("abc");
    await s.remove("k");
    await s.remove("k");
    expect(await keysUnder("unit-b/")).toEqual([]);
    await expect(s.size("k")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(text(s.read("k"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(() => s.read("../x")).toThrow(/Invalid storage key/);
  });

  it("leaves no object and no multipart upload when a write is aborted after its first part", async () => {
    const s = make("unit-c/");
    const source = new PassThrough();
    const ac = new AbortController();
    const done = s.write("org_1/agt_1/fi_c", source, { signal: ac.signal });
    // More than a part: the multipart upload exists on the server when the abort comes.
    source.write(randomBytes(5 * 1024 * 1024 + 1));
    for (let i = 0; i < 200 && (await pendingUploads("unit-c/")).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await pendingUploads("unit-c/")).toHaveLength(1);
    ac.abort(new Error("client went away"));
    await expect(done).rejects.toThrow();
    expect(await keysUnder("unit-c/")).toEqual([]);
    expect(await pendingUploads("unit-c/")).toEqual([]);
  });

  it("fails a write past STORAGE_FAULT_AFTER_BYTES and keeps nothing of it", async () => {
    const s = make("unit-d/", 1000);
    await expect(s.write("k", Readable.from([randomBytes(600), randomBytes(600)]))).rejects.toBeInstanceOf(
      StorageFaultError,
    );
    expect(await keysUnder("unit-d/")).toEqual([]);
  });

  it("presigns a 15-minute GET that answers with the given type, filename and caching, and honours Range", async () => {
    const s = make("unit-e/");
    await s.write("f", Readable.from([Buffer.from("hello world")]));
    const url = await s.downloadUrl!("f", {
      contentType: "application/pdf",
      contentDisposition: 'attachment; filename="a.pdf"',
      cacheControl: "private, no-store",
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="a.pdf"');
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.text()).toBe("hello world");
    const ranged = await fetch(url, { headers: { range: "bytes=6-" } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("world");
    // Signed (SigV4 in the query; s3rver does not check v4 signatures, real S3 does).
    expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("900");
    expect(new URL(url).searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(new URL(url).searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("tus store on S3", () => {
  it("keeps an upload under prefix/tus/<id> with .info state, and completes it in place", async () => {
    const store = new PrefixedS3Store("unit-t/tus/", {
      s3ClientConfig: { ...config(), bucket: S3_TEST_BUCKET },
      expirationPeriodInMilliseconds: 3_600_000,
      useTags: false,
    });
    const content = randomBytes(2000);
    const created = await store.create(new Upload({ id: "upl_unit1", size: content.length, offset: 0 }));
    expect(created.id).toBe("upl_unit1");
    expect(await keysUnder("unit-t/")).toEqual(["unit-t/tus/upl_unit1.info"]);
    expect((await store.getUpload("upl_unit1")).offset).toBe(0);
    // Two PATCHes: the first leaves a tail shorter than a part (.part), the second finishes.
    expect(await store.write(Readable.from([content.subarray(0, 700)]), "upl_unit1", 0)).toBe(700);
    expect(await keysUnder("unit-t/")).toEqual(["unit-t/tus/upl_unit1.info", "unit-t/tus/upl_unit1.part"]);
    const resumed = await store.getUpload("upl_unit1");
    expect(resumed).toMatchObject({ id: "upl_unit1", offset: 700, size: 2000 });
    // A PATCH that fails (client gone, too large) keeps the tail received before: same offset.
    const failing = new Readable({
      read() {
        this.push(content.subarray(700, 800));
        this.destroy(new Error("client went away"));
      },
    });
    await expect(store.write(failing, "upl_unit1", 700)).rejects.toThrow();
    expect((await store.getUpload("upl_unit1")).offset).toBe(700);
    expect(await store.write(Readable.from([content.subarray(700)]), "upl_unit1", 700)).toBe(2000);
    expect((await store.getUpload("upl_unit1")).offset).toBe(2000);
    // A repeated last PATCH (the client missed the answer) is answered with the final offset.
    expect(await store.write(Readable.from([]), "upl_unit1", 2000)).toBe(2000);
    expect(await keysUnder("unit-t/")).toEqual(["unit-t/tus/upl_unit1", "unit-t/tus/upl_unit1.info"]);
    // The file's storage key is tus/<id>: the Storage reads the same object, no copy.
    expect((await buffer(make("unit-t/").read("tus/upl_unit1"))).equals(content)).toBe(true);
    expect(await store.listStored()).toEqual([{ id: "upl_unit1", createdAt: expect.any(Date) }]);
  });

  it("discards an unfinished upload (multipart, state and tail) and deletes expired ones only under its prefix", async () => {
    const opts = {
      s3ClientConfig: { ...config(), bucket: S3_TEST_BUCKET },
      expirationPeriodInMilliseconds: 1,
      useTags: false,
    };
    const store = new PrefixedS3Store("unit-x/tus/", opts);
    const other = new PrefixedS3Store("unit-y/tus/", { ...opts, expirationPeriodInMilliseconds: 3_600_000 });
    await store.create(new Upload({ id: "upl_gone", size: 5000, offset: 0 }));
    await store.write(Readable.from([randomBytes(100)]), "upl_gone", 0);
    await store.create(new Upload({ id: "upl_old", size: 5000, offset: 0 }));
    await store.discard("upl_gone");
    expect(await keysUnder("unit-x/")).toEqual(["unit-x/tus/upl_old.info"]);
    // Termination (tus DELETE) removes the tail too.
    await other.create(new Upload({ id: "upl_del", size: 5000, offset: 0 }));
    await other.write(Readable.from([randomBytes(100)]), "upl_del", 0);
    await other.remove("upl_del");
    expect(await keysUnder("unit-y/")).toEqual([]);
    await other.create(new Upload({ id: "upl_keep", size: 5000, offset: 0 }));
    await new Promise((r) => setTimeout(r, 5)); // older than the 1 ms expiry
    expect(await store.deleteExpired()).toBe(1);
    expect(await keysUnder("unit-x/")).toEqual([]);
    expect(await pendingUploads("unit-x/")).toEqual([]);
    expect(await keysUnder("unit-y/")).toEqual(["unit-y/tus/upl_keep.info"]);
    expect(await pendingUploads("unit-y/")).toHaveLength(1);
  });
});
