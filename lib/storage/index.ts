// File storage behind one small interface, so that an S3-compatible implementation can replace the
// local disk (STORAGE_URL=s3://..., DESIGN "Storage and scale") without touching callers.
// The embedded default keeps bytes under `${DATA_DIR}/files`, in `<key>` paths; writes land in
// `.tmp/` first and are renamed into place, so a reader never sees a partial file.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FileStore } from "@tus/file-store";
import { env } from "../env";
import { log } from "../log";

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
}

/** Thrown by the fault hook (STORAGE_FAULT_AFTER_BYTES), like a disk that fills up mid-stream. */
export class StorageFaultError extends Error {
  constructor(limit: number) {
    super(`Injected storage fault after ${limit} bytes`);
    this.name = "StorageFaultError";
  }
}

// Keys are made by the service (org/agent/file ids), never taken from callers; the check stops a
// bug from ever reaching outside the root.
const KEY_RE = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)*$/;

function assertKey(key: string) {
  if (!KEY_RE.test(key) || key.split("/").some((s) => s === "." || s === "..")) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

export interface LocalStorageOptions {
  /** Test hook: every write fails once it has received more than this many bytes. */
  faultAfterBytes?: number;
  /** Temp files older than this are left by a crashed process and are swept on first write. */
  staleTempMs?: number;
}

export function createLocalStorage(root: string, opts: LocalStorageOptions = {}): Storage {
  const tmpDir = path.join(root, ".tmp");
  const pathOf = (key: string) => {
    assertKey(key);
    return path.join(root, key);
  };
  let swept: Promise<void> | undefined;

  async function sweepStaleTemp() {
    const cutoff = Date.now() - (opts.staleTempMs ?? 2 * 60 * 60 * 1000);
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
      const p = path.join(tmpDir, name);
      const st = await stat(p).catch(() => undefined);
      if (st && st.mtimeMs < cutoff) await rm(p, { force: true });
    }
  }

  return {
    async write(key, source, writeOpts = {}) {
      const dest = pathOf(key);
      await mkdir(tmpDir, { recursive: true });
      // Once per process: bytes of uploads cut short by a crash (a disconnect cleans up itself).
      await (swept ??= sweepStaleTemp().catch((err) => log.warn({ err: String(err) }, "storage: temp sweep failed")));
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      let size = 0;
      const limit = opts.faultAfterBytes;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (limit !== undefined && size > limit) cb(new StorageFaultError(limit));
          else cb(null, chunk);
        },
      });
      try {
        await pipeline(source, counter, createWriteStream(tmp, { flags: "wx", mode: 0o600 }), {
          signal: writeOpts.signal,
        });
        await mkdir(path.dirname(dest), { recursive: true });
        await rename(tmp, dest);
        return { size };
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },

    read(key, range) {
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
    },

    async size(key) {
      return (await stat(pathOf(key))).size;
    },

    async remove(key) {
      try {
        await rm(pathOf(key), { force: true });
      } catch (err) {
        // A folder on the way is not a folder (ENOTDIR): the file cannot be there either. Without
        // this, the cleanup after such a failed write threw in place of the write's own error.
        if ((err as NodeJS.ErrnoException).code !== "ENOTDIR") throw err;
      }
    },
  };
}

const g = globalThis as unknown as { __awsStorage?: { root: string; storage: Storage } };

/** The process-wide storage, from the environment (local disk under DATA_DIR/files). */
export function storage(): Storage {
  const e = env();
  const root = path.resolve(e.DATA_DIR, "files");
  if (g.__awsStorage?.root !== root) {
    g.__awsStorage = {
      root,
      storage: createLocalStorage(root, {
        faultAfterBytes: e.STORAGE_FAULT_AFTER_BYTES,
        // An upload can be in flight for UPLOAD_TIMEOUT_MS: only older temp files are abandoned.
        staleTempMs: e.UPLOAD_TIMEOUT_MS + 60_000,
      }),
    };
  }
  return g.__awsStorage.storage;
}

const gTus = globalThis as unknown as { __awsTusStore?: { dir: string; store: FileStore } };

/**
 * Where resumable (tus) uploads keep their bytes and state: `${DATA_DIR}/files/tus/<upload id>`
 * and `<upload id>.json`, so that an upload survives a restart. A finished upload's bytes stay
 * there and its file's storage key is `tus/<upload id>`.
 */
export function tusStore(): FileStore {
  const e = env();
  const dir = path.resolve(e.DATA_DIR, "files", TUS_PREFIX);
  if (gTus.__awsTusStore?.dir !== dir) {
    const store = new FileStore({ directory: dir, expirationPeriodInMilliseconds: e.UPLOAD_EXPIRY_HOURS * 3_600_000 });
    // The size must be known at creation (SPEC 4.2 answers with it), so deferred lengths are not offered.
    store.extensions = store.extensions.filter((x) => x !== "creation-defer-length");
    gTus.__awsTusStore = { dir, store };
  }
  return gTus.__awsTusStore.store;
}

export const TUS_PREFIX = "tus";
