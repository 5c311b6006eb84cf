// File storage behind one small interface, so that an S3-compatible implementation can replace the
// local disk (STORAGE_URL=s3://...; docs/deploy.md) without touching callers.
// The embedded default keeps bytes under `${DATA_DIR}/files`, in `<key>` paths; writes land in
// `.tmp/` first and are renamed into place, so a reader never sees a partial file.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { S3Client } from "@aws-sdk/client-s3";
import { FileStore } from "@tus/file-store";
import type { DataStore } from "@tus/utils";
import { env, type Env } from "../env";
import { log } from "../log";
import { createS3Storage, parseS3Url, PrefixedS3Store, s3ClientConfig } from "./s3";
import { processSlot } from "../process-state";
import type { Storage } from "./types";

export type { Storage } from "./types";

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

export function assertKey(key: string) {
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

/** Where files are kept, from STORAGE_URL: the local disk (unset or `file:`) or an S3 bucket and prefix. */
function target(
  e: Env,
): { kind: "file"; root: string; id: string } | { kind: "s3"; bucket: string; prefix: string; id: string } {
  if (e.STORAGE_URL?.startsWith("s3://")) {
    const { bucket, prefix } = parseS3Url(e.STORAGE_URL);
    const endpoint = e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL ?? "";
    return { kind: "s3", bucket, prefix, id: `s3 ${endpoint} ${bucket} ${prefix}` };
  }
  const root = path.resolve(e.DATA_DIR, "files");
  return { kind: "file", root, id: `file ${root}` };
}

const currentStorage = processSlot<{ id: string; storage: Storage }>("storage");

/** The process-wide storage, from the environment (STORAGE_URL; the local disk under DATA_DIR/files by default). */
export function storage(): Storage {
  const e = env();
  const t = target(e);
  let current = currentStorage.get();
  if (current?.id !== t.id) {
    current = {
      id: t.id,
      storage:
        t.kind === "s3"
          ? createS3Storage({
              client: new S3Client(s3ClientConfig(e)),
              bucket: t.bucket,
              prefix: t.prefix,
              faultAfterBytes: e.STORAGE_FAULT_AFTER_BYTES,
              assertKey,
              faultError: (limit) => new StorageFaultError(limit),
            })
          : createLocalStorage(t.root, {
              faultAfterBytes: e.STORAGE_FAULT_AFTER_BYTES,
              // An upload can be in flight for UPLOAD_TIMEOUT_MS: only older temp files are abandoned.
              staleTempMs: e.UPLOAD_TIMEOUT_MS + 60_000,
            }),
    };
    currentStorage.set(current);
  }
  return current.storage;
}

/** What lib/files/resumable needs of a tus store beyond tus's own DataStore. */
export type TusStore = DataStore & {
  /** Removes an unfinished upload's bytes and state, whichever of them are still there. */
  discard(id: string): Promise<void>;
  /** Every upload with stored state, with when it began (to sweep state whose record was lost). */
  listStored(): Promise<{ id: string; createdAt?: Date }[]>;
};

class LocalTusStore extends FileStore {
  async discard(id: string) {
    await this.remove(id).catch(() => this.configstore.delete(id).catch(() => undefined));
  }
  async listStored() {
    const ids: string[] = (await this.configstore.list?.().catch(() => [])) ?? [];
    const found: { id: string; createdAt?: Date }[] = [];
    for (const id of ids) {
      const info = await this.configstore.get(id).catch(() => undefined);
      found.push({ id, createdAt: info?.creation_date ? new Date(info.creation_date) : undefined });
    }
    return found;
  }
}

const currentTusStore = processSlot<{ id: string; store: TusStore }>("tusStore");

/**
 * Where resumable (tus) uploads keep their bytes and state, so that an upload survives a restart.
 * On the local disk `${DATA_DIR}/files/tus/<upload id>` and `<upload id>.json`; on S3
 * `<prefix>tus/<upload id>` (a multipart upload until the last byte), `.info` and `.part`
 * (lib/storage/s3.ts). Either way a finished upload's bytes stay there and its file's storage key
 * is `tus/<upload id>`.
 */
export function tusStore(): TusStore {
  const e = env();
  const t = target(e);
  let current = currentTusStore.get();
  if (current?.id !== t.id) {
    const expirationPeriodInMilliseconds = e.UPLOAD_EXPIRY_HOURS * 3_600_000;
    const store: TusStore =
      t.kind === "s3"
        ? new PrefixedS3Store(`${t.prefix}${TUS_PREFIX}/`, {
            s3ClientConfig: { ...s3ClientConfig(e), bucket: t.bucket },
            expirationPeriodInMilliseconds,
            // Tags only serve lifecycle rules, and several S3-compatible services refuse them: the
            // worker deletes expired uploads itself (lib/files/resumable).
            useTags: false,
          })
        : new LocalTusStore({ directory: path.join(t.root, TUS_PREFIX), expirationPeriodInMilliseconds });
    // The size must be known at creation (the upload's answer carries it), so deferred lengths are not offered.
    store.extensions = store.extensions.filter((x) => x !== "creation-defer-length");
    currentTusStore.set((current = { id: t.id, store }));
  }
  return current.store;
}

export const TUS_PREFIX = "tus";
