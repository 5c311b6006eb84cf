// A local S3-compatible server for the S3 storage tests: s3rver (npm), in-process, on a free port,
// with its files in a temp folder. s3rver 3.7 has no ListParts, AbortMultipartUpload nor
// ListMultipartUploads, which @tus/s3-store and @aws-sdk/lib-storage use (docs/decisions.md): the
// three are added here, in front of its router, over s3rver's own multipart folders
// (`<bucket>/._S3rver_uploads/<upload id>/{key, 1, 1.md5, ...}`).
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

export const S3_TEST_BUCKET = "awhs-test";
const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";

export interface S3TestServer {
  endpoint: string;
  /** The environment that points the service at this server (STORAGE_URL and the AWS_* variables). */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
  req: IncomingMessage;
  res: ServerResponse;
}

interface S3rverApp {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function xml(ctx: KoaContext, status: number, body: string) {
  ctx.status = status;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

function noSuchUpload(ctx: KoaContext) {
  xml(ctx, 404, "<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>");
}

/** The three multipart calls s3rver lacks, path-style (`/<bucket>/<key>`). */
function multipartExtras(root: string) {
  const uploadsDir = (bucket: string) => path.join(root, bucket, "._S3rver_uploads");
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const [bucket, ...rest] = ctx.path.split("/").slice(1).map(decodeURIComponent);
    const key = rest.join("/");
    const uploadId = ctx.query.uploadId;
    if (!bucket) return next();
    if (ctx.method === "GET" && key && uploadId !== undefined) {
      // ListParts (one page: tests never reach 1,000 parts).
      const dir = path.join(uploadsDir(bucket), path.basename(uploadId));
      const names = await readdir(dir).catch(() => undefined);
      if (!names) return noSuchUpload(ctx);
      const parts: string[] = [];
      for (const n of names.filter((x) => /^\d+$/.test(x)).sort((a, b) => Number(a) - Number(b))) {
        const st = await stat(path.join(dir, n));
        const md5 = await readFile(path.join(dir, `${n}.md5`), "utf8").catch(() => "");
        parts.push(
          `<Part><PartNumber>${n}</PartNumber><LastModified>${st.mtime.toISOString()}</LastModified>` +
            `<ETag>"${md5}"</ETag><Size>${st.size}</Size></Part>`,
        );
      }
      return xml(
        ctx,
        200,
        `<ListPartsResult><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key>` +
          `<UploadId>${xmlEscape(uploadId)}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`,
      );
    }
    if (ctx.method === "DELETE" && key && uploadId !== undefined) {
      // AbortMultipartUpload
      const dir = path.join(uploadsDir(bucket), path.basename(uploadId));
      if (!(await stat(dir).catch(() => undefined))) return noSuchUpload(ctx);
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    if (ctx.method === "GET" && !key && "uploads" in ctx.query) {
      // ListMultipartUploads (one page)
      const prefix = ctx.query.prefix ?? "";
      const uploads: string[] = [];
      for (const id of await readdir(uploadsDir(bucket)).catch(() => [] as string[])) {
        const dir = path.join(uploadsDir(bucket), id);
        const k = await readFile(path.join(dir, "key"), "utf8").catch(() => undefined);
        if (k === undefined || !k.startsWith(prefix)) continue;
        const initiated = (await stat(dir)).birthtime;
        uploads.push(
          `<Upload><Key>${xmlEscape(k)}</Key><UploadId>${id}</UploadId><Initiated>${initiated.toISOString()}</Initiated></Upload>`,
        );
      }
      return xml(
        ctx,
        200,
        `<ListMultipartUploadsResult><Bucket>${xmlEscape(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`,
      );
    }
    return next();
  };
}

/** Starts s3rver with one bucket; `close` stops it and deletes its files. */
export async function startS3Server(): Promise<S3TestServer> {
  const require = createRequire(import.meta.url);
  const S3rver = require("s3rver") as new (opts: Record<string, unknown>) => S3rverApp;
  const directory = mkdtempSync(path.join(os.tmpdir(), "awhs-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: S3_TEST_BUCKET }],
  });
  // After s3rver's logger, XML encoder and mount interop, before its vhost and router.
  server.middleware.splice(3, 0, multipartExtras(directory));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: (prefix = "files") => ({
      STORAGE_URL: `s3://${S3_TEST_BUCKET}/${prefix}`,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: "true",
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// ---- The suites' view of stored files, on the local disk or in the bucket ----------------------
// `npm test` runs the upload, tus and file suites a second time with TEST_S3_STORAGE_URL set
// (global-setup starts s3rver): every server then stores under its own prefix of that bucket.

/** True in the S3 pass of the suites. */
export const onS3 = () => Boolean(process.env.TEST_S3_STORAGE_URL);

/** The STORAGE_URL of a server on `target` in the S3 pass (its own prefix), else nothing. */
export function storageEnv(target: { dataDir: string }): Record<string, string> {
  const base = process.env.TEST_S3_STORAGE_URL;
  if (!base) return {};
  return { STORAGE_URL: `${base}/${path.basename(path.dirname(target.dataDir))}` };
}

let testClient: S3Client | undefined;
function s3For(target: { dataDir: string }) {
  testClient ??= new S3Client({
    region: process.env.AWS_REGION ?? "us-east-1",
    endpoint: process.env.AWS_ENDPOINT_URL_S3,
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(storageEnv(target).STORAGE_URL!)!;
  return { client: testClient, bucket: m[1]!, prefix: `${m[2]}/` };
}

/** Every stored object's key (relative to the storage root), temp files of the local disk included. */
export async function storedKeys(target: { dataDir: string }): Promise<string[]> {
  if (!onS3()) {
    const root = path.join(target.dataDir, "files");
    if (!existsSync(root)) return [];
    return readdirSync(root, { recursive: true, encoding: "utf8" }).filter((p) =>
      statSync(path.join(root, p)).isFile(),
    );
  }
  const { client, bucket, prefix } = s3For(target);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!.slice(prefix.length)));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Writes still in flight: temp files on the local disk, unfinished multipart uploads on S3. */
export async function pendingWrites(target: { dataDir: string }): Promise<string[]> {
  if (!onS3()) return (await storedKeys(target)).filter((k) => k.startsWith(".tmp/"));
  const { client, bucket, prefix } = s3For(target);
  const res = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
  return (res.Uploads ?? []).map((u) => u.Key!.slice(prefix.length));
}

/** The bytes stored under `key`, or undefined. */
export async function storedBytes(target: { dataDir: string }, key: string): Promise<Buffer | undefined> {
  if (!onS3()) {
    return readFile(path.join(target.dataDir, "files", key)).catch(() => undefined);
  }
  const { client, bucket, prefix } = s3For(target);
  try {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch {
    return undefined;
  }
}

/** A tus upload has stored bytes: its file, or on S3 also its multipart upload or short tail. */
export async function tusBytesExist(target: { dataDir: string }, id: string): Promise<boolean> {
  const keys = await storedKeys(target);
  if (keys.includes(`tus/${id}`)) return true;
  if (!onS3()) return false;
  return keys.includes(`tus/${id}.part`) || (await pendingWrites(target)).includes(`tus/${id}`);
}

/** A tus upload's state is stored (`.json` on the local disk, `.info` on S3). */
export async function tusStateExists(target: { dataDir: string }, id: string): Promise<boolean> {
  return (await storedKeys(target)).includes(`tus/${id}.${onS3() ? "info" : "json"}`);
}

/** SHA-256 (hex) of the bytes stored under `key`, streamed (the suites store files of 200 MiB). */
export async function storedSha256(target: { dataDir: string }, key: string): Promise<string> {
  const hash = createHash("sha256");
  let source: AsyncIterable<Uint8Array>;
  if (!onS3()) source = createReadStream(path.join(target.dataDir, "files", key));
  else {
    const { client, bucket, prefix } = s3For(target);
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
    source = res.Body as AsyncIterable<Uint8Array>;
  }
  for await (const chunk of source) hash.update(chunk);
  return hash.digest("hex");
}
