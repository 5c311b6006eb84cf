// S3-compatible storage (STORAGE_URL=s3://bucket/prefix): the same Storage interface as the local
// disk, and the tus store for resumable uploads, both in one bucket under one prefix. Objects are
// `<prefix>/<key>`; a tus upload's bytes are `<prefix>/tus/<upload id>`, the same key its file
// records (lib/files/resumable), so a finished upload is read where tus completed it, never copied.
import { Readable, Transform, PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload as MultipartUpload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { S3Store, type MetadataValue } from "@tus/s3-store";
import type { KvStore, Upload } from "@tus/utils";
import type { Env } from "../env";
import type { DownloadHeaders, Storage } from "./types";

/** `s3://bucket/some/prefix` → bucket and `some/prefix/` ("" without a prefix). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m) throw new Error(`Not an s3:// URL: ${url}`);
  const prefix = m[2]!.replace(/^\/+|\/+$/g, "");
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : "" };
}

/** The client settings from the environment (AWS_*, S3_FORCE_PATH_STYLE). */
export function s3ClientConfig(e: Env): S3ClientConfig {
  return {
    region: e.AWS_REGION,
    endpoint: e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    // Unset: the SDK's own chain (instance or task role, profile, web identity).
    credentials:
      e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
        : undefined,
    // The SDK's default adds CRC trailers in aws-chunked bodies, which several S3-compatible
    // services (and s3rver) do not accept; checksums are sent where S3 requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

/** Presigned download links are valid this long (15 minutes, as local signed links). */
export const PRESIGN_SECONDS = 15 * 60;

/** Parts of a streamed write: 5 MiB (S3's smallest), one in flight while the next fills. */
const PART_SIZE = 5 * 1024 * 1024;

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** "" or ending in "/". */
  prefix: string;
  /** Test hook, as for the local disk: every write fails past this many bytes. */
  faultAfterBytes?: number;
  /** Checks a key and names the fault error (shared with the local storage). */
  assertKey: (key: string) => void;
  faultError: (limit: number) => Error;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/** A missing object reads like a missing local file (callers treat ENOENT as gone). */
function notFoundError(key: string, cause: unknown): Error {
  return Object.assign(new Error(`No such object: ${key}`), { code: "ENOENT", cause });
}

export function createS3Storage(opts: S3StorageOptions): Storage {
  const { client, bucket, prefix } = opts;
  const objectKey = (key: string) => {
    opts.assertKey(key);
    return prefix + key;
  };

  return {
    async write(key, source, writeOpts = {}) {
      const Key = objectKey(key);
      let size = 0;
      const limit = opts.faultAfterBytes;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (limit !== undefined && size > limit) cb(opts.faultError(limit));
          else cb(null, chunk);
        },
      });
      // Bounded memory: at most queueSize parts buffered plus the one being filled. Any error or
      // abort aborts the multipart upload (lib-storage's default), so no partial object is left:
      // S3 makes the object visible only on CompleteMultipartUpload.
      const upload = new MultipartUpload({
        client,
        params: { Bucket: bucket, Key, Body: counter },
        partSize: PART_SIZE,
        queueSize: 1,
        leavePartsOnError: false,
      });
      const signal = writeOpts.signal;
      if (signal?.aborted) throw signal.reason;
      // An abort destroys the feed, so the upload's Body fails and lib-storage aborts the multipart
      // upload before done() settles (its own abort() would settle first and abort later).
      const fed = pipeline(source, counter, { signal });
      const done = upload.done();
      // A failed upload fails the feed too (else it would wait for a reader forever).
      done.catch((err: Error) => counter.destroy(err));
      const [feedResult, uploadResult] = await Promise.allSettled([fed, done]);
      if (feedResult.status === "rejected") {
        // A body that failed after its last byte was read may still have been stored whole.
        if (uploadResult.status === "fulfilled") await this.remove(key).catch(() => undefined);
        throw feedResult.reason;
      }
      if (uploadResult.status === "rejected") throw uploadResult.reason;
      return { size };
    },

    read(key, range) {
      const Key = objectKey(key);
      const out = new PassThrough();
      const Range = range ? `bytes=${range.start}-${range.end ?? ""}` : undefined;
      client
        .send(new GetObjectCommand({ Bucket: bucket, Key, Range }))
        .then((res) => pipeline(res.Body as Readable, out))
        .catch((err: unknown) => out.destroy(isNotFound(err) ? notFoundError(key, err) : (err as Error)));
      return out;
    },

    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return head.ContentLength ?? 0;
      } catch (err) {
        throw isNotFound(err) ? notFoundError(key, err) : err;
      }
    },

    async remove(key) {
      // Idempotent: S3 answers 204 for a key that is not there.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async downloadUrl(key: string, headers: DownloadHeaders) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          ResponseContentType: headers.contentType,
          ResponseContentDisposition: headers.contentDisposition,
          ResponseCacheControl: headers.cacheControl,
        }),
        { expiresIn: PRESIGN_SECONDS },
      );
    },
  };
}

/** tus state cache per process, bounded (S3Store's default Map keeps abandoned uploads forever).
 *  Safe with several processes: what it caches (size, multipart upload id) never changes once an
 *  upload is created, since deferred lengths are not offered. */
class BoundedKvStore<T> implements KvStore<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly max = 1000) {}
  async get(key: string) {
    return this.map.get(key);
  }
  async set(key: string, value: T) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  async delete(key: string) {
    this.map.delete(key);
  }
  async list() {
    return [...this.map.keys()];
  }
}

/**
 * @tus/s3-store names objects by the upload id and has no prefix option: this one maps our upload
 * ids (`upl_...`, in URLs) to `<prefix>tus/<id>` (bytes, completed by CompleteMultipartUpload in
 * place), `<...>.info` (state) and `<...>.part` (a tail shorter than a part, between PATCHes).
 */
export class PrefixedS3Store extends S3Store {
  constructor(
    private readonly tusPrefix: string,
    options: ConstructorParameters<typeof S3Store>[0],
  ) {
    super({ ...options, cache: new BoundedKvStore<MetadataValue>() });
  }

  private key(id: string) {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`Invalid upload id: ${JSON.stringify(id)}`);
    return this.tusPrefix + id;
  }

  private unkey<U extends Upload>(upload: U, id: string): U {
    upload.id = id;
    return upload;
  }

  override async create(upload: Upload) {
    const id = upload.id;
    upload.id = this.key(id);
    return this.unkey(await super.create(upload), id);
  }
  /** Per upload key, during a write: what happened to the short tail (`.part`) of the previous PATCH. */
  private readonly writing = new Map<string, { tailTaken: boolean; partUploaded: boolean; newTail: boolean }>();

  // S3Store deletes the previous tail before sending it on with the new bytes, so a PATCH that
  // failed (too large, client gone) lost up to a part's worth of received bytes. Here the tail is
  // deleted only once it is stored elsewhere: in a full part, or overwritten by the new tail.
  protected override async deleteIncompletePart(key: string) {
    const w = this.writing.get(key);
    if (w) w.tailTaken = true;
    else await super.deleteIncompletePart(key);
  }
  protected override async uploadPart(metadata: MetadataValue, body: Parameters<S3Store["uploadPart"]>[1], n: number) {
    const etag = await super.uploadPart(metadata, body, n);
    const w = this.writing.get(metadata.file.id);
    if (w) w.partUploaded = true;
    return etag;
  }
  protected override async uploadIncompletePart(key: string, body: Parameters<S3Store["uploadIncompletePart"]>[1]) {
    const etag = await super.uploadIncompletePart(key, body);
    const w = this.writing.get(key);
    if (w) w.newTail = true;
    return etag;
  }

  override async write(src: Readable, id: string, offset: number) {
    const key = this.key(id);
    // One PATCH of an upload at a time (the tus locker), so one entry per key.
    const w = { tailTaken: false, partUploaded: false, newTail: false };
    this.writing.set(key, w);
    let ok = false;
    try {
      const result = await super.write(src, key, offset);
      ok = true;
      return result;
    } catch (err) {
      // A repeated last PATCH (a client that missed the answer): the multipart upload is already
      // complete, so S3Store's ListParts finds no upload. Answer with the final offset, as the disk does.
      const done = await super.getUpload(key).catch(() => undefined);
      if (done?.size !== undefined && done.offset === done.size && offset === done.size) return offset;
      throw err;
    } finally {
      this.writing.delete(key);
      // The old tail now lives in a part (or the request succeeded without a new tail): delete it.
      // A failed PATCH that stored nothing keeps it, and the upload keeps its offset.
      if (w.tailTaken && !w.newTail && (ok || w.partUploaded)) await super.deleteIncompletePart(key);
    }
  }
  override async getUpload(id: string) {
    return this.unkey(await super.getUpload(this.key(id)), id);
  }
  override declareUploadLength(id: string, length: number) {
    return super.declareUploadLength(this.key(id), length);
  }
  override read(id: string) {
    return super.read(this.key(id));
  }
  /** Termination (DELETE): S3Store's leaves the `.part` tail behind. */
  override async remove(id: string) {
    await super.remove(this.key(id));
    await this.client.deleteObject({ Bucket: this.bucket, Key: `${this.key(id)}.part` });
  }

  /** Aborts the multipart upload (if any) and deletes bytes, state and tail, whatever is left. */
  async discard(id: string) {
    const key = this.key(id);
    await super.remove(key).catch(() => undefined);
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: key }, { Key: `${key}.info` }, { Key: `${key}.part` }], Quiet: true },
    });
    await this.clearCache(key);
  }

  /** Every upload with stored state under the prefix, with when it began (the .info's time). */
  async listStored(): Promise<{ id: string; createdAt?: Date }[]> {
    const found: { id: string; createdAt?: Date }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.tusPrefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        const name = o.Key?.slice(this.tusPrefix.length) ?? "";
        if (name.endsWith(".info") && !name.includes("/"))
          found.push({ id: name.slice(0, -5), createdAt: o.LastModified });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  /** Like S3Store's, but only under our prefix: the bucket may hold other multipart uploads. */
  override async deleteExpired(): Promise<number> {
    const cutoff = Date.now() - this.getExpiration();
    let deleted = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.tusPrefix, KeyMarker, UploadIdMarker }),
      );
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.Initiated || u.Initiated.getTime() > cutoff) continue;
        await this.discard(u.Key.slice(this.tusPrefix.length));
        deleted++;
      }
      if (!page.IsTruncated) return deleted;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }
}
