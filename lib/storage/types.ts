// What a storage backend is (the local disk in ./index.ts, S3 in ./s3.ts): its own module, so that
// both import it and neither imports the other for it (lib/architecture.test.ts refuses import cycles).
import type { Readable } from "node:stream";

export interface Storage {
  /** Streams into `key` atomically (temp file then rename); on any error or abort the partial
   *  bytes are removed and the promise rejects. */
  write(
    key: string,
    source: NodeJS.ReadableStream | AsyncIterable<Uint8Array>,
    opts?: { signal?: AbortSignal },
  ): Promise<{ size: number }>;
  /** `range.end` is inclusive, as in HTTP Range and S3 GetObject. */
  read(key: string, range?: { start: number; end?: number }): Readable;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
  /** Object storage only: a presigned GET of the key that answers with these headers (15 minutes).
   *  Absent on the local disk, where the service streams the bytes itself. */
  downloadUrl?(key: string, headers: DownloadHeaders): Promise<string>;
}

export interface DownloadHeaders {
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
}
