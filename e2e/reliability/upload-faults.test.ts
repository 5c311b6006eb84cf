// Upload faults: clients that hang up at random offsets (multipart and tus) and storage
// that fails leave no file record and no stray bytes, and the next upload works. The storage faults
// are made on the data folder itself, with no hook in the service: a folder replaced by a regular
// file (refused at the first byte, or at the final rename after every byte arrived), an upload's
// bytes file made a link to /dev/full (every write fails), and, where the test may mount a file
// system (root with CAP_SYS_ADMIN), a full disk: `files/` on a small tmpfs that a filler file fills
// up mid-stream. Offsets and sizes are drawn from a printed seed. At the end, with the server
// stopped, the database and the disk hold exactly the uploads that succeeded, nothing else.
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartEnvelope } from "../../lib/files/multipart-body";
import { ECHO_AGENT } from "../api/helpers";
import { freshTarget } from "../api/server";
import { rng, settle, stackOn, withDb, type Rng, type Stack } from "./crash-helpers";
import { scale } from "./scale";

const SIZE = scale({ full: { aborts: 40, tusAborts: 30 }, ci: { aborts: 8, tusAborts: 6 } });
const V = { "tus-resumable": "1.0.0" };
const OCTETS = { ...V, "content-type": "application/offset+octet-stream" };
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN): for the full-disk cases. */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(path.join(os.tmpdir(), "awhs-mount-probe-"));
  try {
    if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]).status !== 0) return false;
    spawnSync("umount", [dir]);
    return true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const TMPFS = canMountTmpfs();
/** Room for every upload the suite keeps (the full-disk cases fill the rest). */
const TMPFS_SIZE = scale({ full: 160, ci: 48 }) * 1024 * 1024;

let stack: Stack | undefined;
let dispose: (() => Promise<void>) | undefined;
let mounted: string | undefined;
let key: string;
let agentId: string;
let r: Rng;
/** What succeeded: multipart file ids, and tus uploads (id -> file id, or null while resumable). */
const stored = new Map<string, string>(); // file id -> sha256 of its bytes
const tusUploads = new Map<string, { fileId: string | null; sha: string }>();

const filesDir = () => path.join(stack!.target.dataDir, "files");
const tmpDir = () => path.join(filesDir(), ".tmp");
const agentDir = () => path.join(filesDir(), stack!.org.organization_id, agentId);
const tusDir = () => path.join(filesDir(), "tus");
const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

afterAll(async () => {
  await stack?.stop();
  if (mounted) spawnSync("umount", [mounted]);
  await dispose?.();
});

beforeAll(async () => {
  r = rng("upload-faults");
  const fresh = await freshTarget("upload-faults");
  dispose = fresh.dispose;
  if (TMPFS) {
    mounted = path.join(fresh.target.dataDir, "files");
    mkdirSync(mounted, { recursive: true });
    const res = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_SIZE}`, "tmpfs", mounted]);
    if (res.status !== 0) throw new Error(`mount: ${res.stderr}`);
  }
  stack = await stackOn(fresh.target, "upload-faults", {});
  key = await stack.mintKey();
  agentId = await stack.createAgent(ECHO_AGENT);
}, 300_000);

// --- clients ---------------------------------------------------------------------------------

interface RawAnswer {
  status?: number;
  body?: any;
  headers?: http.IncomingHttpHeaders;
}

/**
 * Sends `body` (or its first `cut` bytes, then hangs up) with the headers given. Resolves with the
 * answer, if the server gave one before the hang-up.
 */
function rawRequest(opts: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  cut?: number;
}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (a: RawAnswer) => {
      if (!settled) {
        settled = true;
        resolve(a);
      }
    };
    const req = http.request(`${stack!.baseUrl}${opts.path}`, {
      method: opts.method,
      headers: { authorization: `Bearer ${key}`, "content-length": String(opts.body.length), ...opts.headers },
      agent: false,
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        finish({ status: res.statusCode, body, headers: res.headers });
      });
      res.on("error", () => finish({ status: res.statusCode }));
    });
    req.on("error", () => finish({}));
    req.on("close", () => setTimeout(() => finish({}), 50));
    if (opts.cut === undefined) {
      req.end(opts.body);
      return;
    }
    // The bytes before the cut, then (once they are written out) the hang-up.
    req.write(opts.body.subarray(0, opts.cut), () => setTimeout(() => req.destroy(), 100));
  });
}

function multipartBody(content: Buffer, filename = "f.bin") {
  const env = multipartEnvelope({ filename, contentType: "application/octet-stream" });
  return { body: Buffer.concat([env.head, content, env.tail]), contentType: env.contentType, head: env.head.length };
}

const uploadPath = () => `/api/agents/${agentId}/upload`;

/** A multipart upload that must succeed; its bytes are checked on disk. */
async function uploadOk(size = r.int(1, 256 * 1024)) {
  const content = randomBytes(size);
  const { body, contentType } = multipartBody(content, "ok.bin");
  const res = await rawRequest({ method: "POST", path: uploadPath(), headers: { "content-type": contentType }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ size_bytes: size, filename: "ok.bin" });
  expect(sha(readFileSync(path.join(agentDir(), res.body.file_id)))).toBe(sha(content));
  stored.set(res.body.file_id, sha(content));
}

const tusCreate = async (length: number) => {
  const res = await rawRequest({
    method: "POST",
    path: `/api/agents/${agentId}/upload/tus`,
    headers: { ...V, "upload-length": String(length), "content-length": "0" },
    body: Buffer.alloc(0),
  });
  return { status: res.status, url: String(res.headers?.location ?? ""), body: res.body };
};
const tusPatch = (url: string, offset: number, bytes: Buffer, cut?: number) =>
  rawRequest({ method: "PATCH", path: url, headers: { ...OCTETS, "upload-offset": String(offset) }, body: bytes, cut });
const tusHead = (url: string) => rawRequest({ method: "HEAD", path: url, headers: V, body: Buffer.alloc(0) });
const tusOffset = async (url: string) => {
  const res = await tusHead(url);
  expect(res.status, `HEAD ${url}`).toBe(200);
  return Number(res.headers!["upload-offset"]);
};
const tusGet = (url: string) => rawRequest({ method: "GET", path: url, headers: {}, body: Buffer.alloc(0) });

/** A tus upload that must succeed in one PATCH. */
async function tusOk(size = r.int(1, 256 * 1024)) {
  const content = randomBytes(size);
  const { status, url } = await tusCreate(size);
  expect(status).toBe(201);
  const done = await tusPatch(url, 0, content);
  expect(done.status).toBe(204);
  const fileId = String(done.headers!["upload-file-id"]);
  expect(fileId).toMatch(/^fi_[0-9a-f]{32}$/);
  expect(sha(readFileSync(path.join(tusDir(), url.split("/").pop()!)))).toBe(sha(content));
  tusUploads.set(url.split("/").pop()!, { fileId, sha: sha(content) });
}

/** The temp folder is empty again (a hang-up is noticed, and its bytes removed, asynchronously). */
const tempEmptied = () => settle(async () => listDir(tmpDir()).length === 0, 30_000, 100);
/** Files in the agent's folder that no successful upload made. */
const strays = () => listDir(agentDir()).filter((f) => !stored.has(f));
/**
 * The strays once the server is done with the aborted request: a body cut after the file part's
 * last byte is stored (temp file renamed) before the server notices the hang-up and removes it, so
 * the temp folder can be empty while the removal is still to come.
 */
const strayFiles = async () => {
  await settle(async () => strays().length === 0, 30_000, 100);
  return strays();
};

// --- the cases -------------------------------------------------------------------------------

describe("upload faults", () => {
  it(`multipart: ${SIZE.aborts} hang-ups at random offsets leave no file and no bytes; the next upload works`, async () => {
    for (let n = 0; n < SIZE.aborts; n++) {
      const content = randomBytes(r.int(1, 1536 * 1024));
      const { body, contentType, head } = multipartBody(content);
      // Anywhere before the closing delimiter is complete (with it, the body is whole: the upload may
      // succeed): before the file part, in it, right after its last byte, in the delimiter.
      const end = head + content.length;
      const cut = r.pick([
        () => r.int(0, head - 1),
        () => r.int(head, end - 1),
        () => r.int(head, end - 1),
        () => end,
        () => r.int(end, body.length - 3), // the tail is CRLF "--" boundary "--" CRLF
      ])();
      console.log(`[upload-faults] multipart ${n}: ${content.length} bytes, hang up at ${cut} of ${body.length}`);
      const res = await rawRequest({
        method: "POST",
        path: uploadPath(),
        headers: { "content-type": contentType },
        body,
        cut,
      });
      expect(res.status, `an answer before the body was complete: ${JSON.stringify(res.body)}`).toBeUndefined();
      expect(await tempEmptied(), "the partial bytes are removed").toBe(true);
      expect(await strayFiles()).toEqual([]);
      await uploadOk();
    }
  });

  it(`tus: ${SIZE.tusAborts} PATCHes cut at random offsets keep at most the bytes sent and make no file; resumed, the upload is exact; terminated, nothing is left`, async () => {
    for (let n = 0; n < SIZE.tusAborts; n++) {
      const content = randomBytes(r.int(2, 1536 * 1024));
      const { status, url } = await tusCreate(content.length);
      expect(status).toBe(201);
      const id = url.split("/").pop()!;
      const cut = r.int(0, content.length - 1);
      const resume = r.next() < 0.5;
      console.log(
        `[upload-faults] tus ${n}: ${content.length} bytes, hang up at ${cut}, then ${resume ? "resume" : "terminate"}`,
      );
      const cutAnswer = await tusPatch(url, 0, content, cut);
      expect(cutAnswer.status).toBeUndefined();
      const offset = await tusOffset(url);
      expect(offset).toBeLessThanOrEqual(cut);
      // Only bytes that were sent, in place; no file while bytes are missing.
      expect(readFileSync(path.join(tusDir(), id)).equals(content.subarray(0, offset))).toBe(true);
      const incomplete = await tusGet(url);
      expect([incomplete.status, incomplete.body?.error?.code]).toEqual([409, "upload_incomplete"]);
      if (resume) {
        const done = await tusPatch(url, offset, content.subarray(offset));
        expect(done.status).toBe(204);
        const fileId = String(done.headers!["upload-file-id"]);
        expect((await tusGet(url)).body).toMatchObject({ file_id: fileId, size_bytes: content.length });
        expect(sha(readFileSync(path.join(tusDir(), id)))).toBe(sha(content));
        tusUploads.set(id, { fileId, sha: sha(content) });
      } else {
        const gone = await rawRequest({ method: "DELETE", path: url, headers: V, body: Buffer.alloc(0) });
        expect(gone.status).toBe(204);
        expect((await tusHead(url)).status).toBe(404);
        expect(listDir(tusDir()).filter((f) => f.startsWith(id))).toEqual([]);
      }
      await tusOk();
    }
  });

  it("storage refusing the first byte (its temp folder replaced by a file): 500 upload_failed, nothing kept; repaired, the next upload works", async () => {
    await uploadOk(); // the temp folder exists
    rmSync(tmpDir(), { recursive: true, force: true });
    writeFileSync(tmpDir(), "not a folder");
    try {
      const { body, contentType } = multipartBody(randomBytes(300_000));
      const res = await rawRequest({
        method: "POST",
        path: uploadPath(),
        headers: { "content-type": contentType },
        body,
      });
      expect([res.status, res.body?.error?.code]).toEqual([500, "upload_failed"]);
      expect(await strayFiles()).toEqual([]);
    } finally {
      rmSync(tmpDir(), { force: true });
    }
    await uploadOk();
  });

  it("storage failing after the last byte (the agent's folder replaced by a file): 500 upload_failed, the temp bytes removed; repaired, the next upload works", async () => {
    await uploadOk(); // the agent's folder exists
    const aside = `${agentDir()}.aside`;
    renameSync(agentDir(), aside);
    writeFileSync(agentDir(), "not a folder");
    try {
      const { body, contentType } = multipartBody(randomBytes(700_000));
      const res = await rawRequest({
        method: "POST",
        path: uploadPath(),
        headers: { "content-type": contentType },
        body,
      });
      expect([res.status, res.body?.error?.code]).toEqual([500, "upload_failed"]);
      expect(listDir(tmpDir())).toEqual([]);
    } finally {
      rmSync(agentDir(), { force: true });
      renameSync(aside, agentDir());
    }
    await uploadOk();
  });

  it("tus storage refusing a new upload (its folder replaced by a file): an error, no upload or file left; repaired, the next works", async () => {
    await tusOk(); // the tus folder exists
    const aside = `${tusDir()}.aside`;
    renameSync(tusDir(), aside);
    writeFileSync(tusDir(), "not a folder");
    try {
      const res = await tusCreate(1000);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.url).toBe("");
    } finally {
      rmSync(tusDir(), { force: true });
      renameSync(aside, tusDir());
    }
    await tusOk();
  });

  it("tus storage failing a PATCH (the upload's bytes file made /dev/full): an error, no file; repaired, the upload completes with the exact bytes", async () => {
    const content = randomBytes(400_000);
    const { status, url } = await tusCreate(content.length);
    expect(status).toBe(201);
    const id = url.split("/").pop()!;
    const bytes = path.join(tusDir(), id);
    rmSync(bytes);
    symlinkSync("/dev/full", bytes); // every write fails: ENOSPC
    try {
      const res = await tusPatch(url, 0, content);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect((await tusGet(url)).status).toBe(409);
    } finally {
      rmSync(bytes, { force: true });
      writeFileSync(bytes, "");
    }
    expect(await tusOffset(url)).toBe(0);
    const done = await tusPatch(url, 0, content);
    expect(done.status).toBe(204);
    expect(sha(readFileSync(bytes))).toBe(sha(content));
    tusUploads.set(id, { fileId: String(done.headers!["upload-file-id"]), sha: sha(content) });
  });

  describe.runIf(TMPFS)("a full disk (files/ on a tmpfs; needs root allowed to mount)", () => {
    const filler = () => path.join(filesDir(), ".filler");
    /** Fills the disk but for `free` bytes. */
    const fill = (free: number) => {
      const st = statfsSync(filesDir());
      const block = Buffer.alloc(4 * 1024 * 1024);
      const fd = openSync(filler(), "w");
      try {
        for (let left = st.bavail * st.bsize - free; left > 0; left -= block.length)
          writeSync(fd, block, 0, Math.min(block.length, left));
      } finally {
        closeSync(fd);
      }
    };

    it("multipart: fails mid-stream with 500 upload_failed, keeps nothing; with space again, the next upload works", async () => {
      fill(512 * 1024);
      try {
        const { body, contentType } = multipartBody(randomBytes(3 * 1024 * 1024));
        const res = await rawRequest({
          method: "POST",
          path: uploadPath(),
          headers: { "content-type": contentType },
          body,
        });
        expect([res.status, res.body?.error?.code]).toEqual([500, "upload_failed"]);
        expect(await tempEmptied()).toBe(true);
        expect(await strayFiles()).toEqual([]);
      } finally {
        rmSync(filler(), { force: true });
      }
      await uploadOk();
    });

    it("tus: a PATCH fails mid-stream, keeps only whole bytes that were sent, makes no file; with space again, it resumes to the exact bytes", async () => {
      const content = randomBytes(3 * 1024 * 1024);
      const { status, url } = await tusCreate(content.length);
      expect(status).toBe(201);
      const id = url.split("/").pop()!;
      fill(512 * 1024);
      try {
        const res = await tusPatch(url, 0, content);
        expect(res.status).toBeGreaterThanOrEqual(500);
        const offset = await tusOffset(url);
        expect(offset).toBeLessThan(content.length);
        expect(readFileSync(path.join(tusDir(), id)).equals(content.subarray(0, offset))).toBe(true);
        expect((await tusGet(url)).status).toBe(409);
      } finally {
        rmSync(filler(), { force: true });
      }
      const offset = await tusOffset(url);
      const done = await tusPatch(url, offset, content.subarray(offset));
      expect(done.status).toBe(204);
      expect(sha(readFileSync(path.join(tusDir(), id)))).toBe(sha(content));
      tusUploads.set(id, { fileId: String(done.headers!["upload-file-id"]), sha: sha(content) });
    });
  });

  it("in the end the database and the disk hold exactly the uploads that succeeded", async () => {
    await stack!.stop(); // the embedded database allows one process
    const { files, uploads } = await withDb(stack!.target, async (q) => ({
      files: await q<{ id: string; storage_key: string }>("SELECT id, storage_key FROM files"),
      uploads: await q<{ id: string; file_id: string | null }>("SELECT id, file_id FROM uploads"),
    }));
    const tusFiles = [...tusUploads.values()].map((u) => u.fileId!);
    expect(files.map((f) => f.id).sort()).toEqual([...stored.keys(), ...tusFiles].sort());
    expect(uploads.map((u) => [u.id, u.file_id]).sort()).toEqual(
      [...tusUploads.entries()].map(([id, u]) => [id, u.fileId]).sort(),
    );
    expect(listDir(agentDir()).sort()).toEqual([...stored.keys()].sort());
    for (const [id, digest] of stored) expect(sha(readFileSync(path.join(agentDir(), id)))).toBe(digest);
    expect(listDir(tusDir()).sort()).toEqual([...tusUploads.keys()].flatMap((id) => [id, `${id}.json`]).sort());
    expect(listDir(tmpDir())).toEqual([]);
    expect(
      listDir(filesDir()).filter((f) => ![".tmp", "tus", stack!.org.organization_id, "lost+found"].includes(f)),
    ).toEqual([]);
    for (const f of readdirSync(filesDir(), { recursive: true, encoding: "utf8" }))
      if (statSync(path.join(filesDir(), f)).isFile() && f.endsWith(".part")) throw new Error(`stray ${f}`);
  });
});
