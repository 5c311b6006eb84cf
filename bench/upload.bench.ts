// Upload throughput and server memory: a large file streamed through the real server (node
// dist/server.mjs on a temp data folder) as one multipart POST and as a tus upload (creation, then
// PATCHes of BENCH_TUS_CHUNK_MB each, default 64; 0 sends the whole file in one PATCH), against `cp`
// of the same file on the same disk in the same run, and against the floor of any Node server: plain
// node:http writing the same request body to a file (bench/bare-upload.mjs).
// Env: BENCH_UPLOAD_MB (default 2048); TEST_DATABASE_URL puts the server's database (not its file
// storage) on a fresh PostgreSQL database. Needs a production build (npm run build, with the same
// NEXT_DIST_DIR). The file is real data (a random 8 MiB block repeated), not sparse, so that `cp`
// copies every byte too.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ownServer, type OwnServer } from "../e2e/api/server";
import { multipartEnvelope } from "../lib/files/multipart-body";
import { startProcess, type BenchProcess } from "./processes";

const MiB = 1024 * 1024;

function makeFile(file: string, bytes: number) {
  const block = randomBytes(8 * MiB);
  const fd = openSync(file, "w");
  try {
    for (let left = bytes; left > 0; left -= block.length) writeSync(fd, block, 0, Math.min(left, block.length));
  } finally {
    closeSync(fd);
  }
}

/** kB of one /proc/<pid>/status field. */
function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function processTree(pid: number): number[] {
  const out = [pid];
  let children = "";
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
  } catch {
    return out;
  }
  for (const c of children.split(/\s+/).filter(Boolean)) out.push(...processTree(Number(c)));
  return out;
}

const treeRssKb = (pid: number) => processTree(pid).reduce((n, p) => n + statusKb(p, "VmRSS"), 0);

/** Streams the file from disk as the one part of a multipart body; nothing is buffered. */
function uploadFromDisk(url: string, key: string, file: string, size: number): Promise<{ size_bytes: number }> {
  const env = multipartEnvelope({ filename: path.basename(file), contentType: "application/octet-stream" });
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": env.contentType,
        "content-length": String(env.length(size)),
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () =>
        res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode} ${text}`)),
      );
    });
    req.on("error", reject);
    req.write(env.head);
    const data = createReadStream(file, { highWaterMark: MiB });
    data.on("error", reject);
    data.pipe(req, { end: false });
    data.on("end", () => req.end(env.tail));
  });
}

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: { file: string; start: number; end: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    if (!body) return void req.end();
    const data = createReadStream(body.file, { start: body.start, end: body.end - 1, highWaterMark: MiB });
    data.on("error", reject);
    data.pipe(req);
  });
}

/** tus 1.0: POST (creation), then PATCHes of `chunk` bytes streamed from disk; returns the fi_ id. */
async function tusFromDisk(url: string, key: string, file: string, size: number, chunk: number): Promise<string> {
  const auth = { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0" };
  const created = await request(url, "POST", {
    ...auth,
    "upload-length": String(size),
    "upload-metadata": `filename ${Buffer.from(path.basename(file)).toString("base64")}`,
  });
  if (created.status !== 201) throw new Error(`tus create: ${created.status} ${created.text}`);
  const location = new URL(String(created.headers.location), url).toString();
  let offset = 0;
  let fileId: string | undefined;
  while (offset < size) {
    const end = chunk > 0 ? Math.min(size, offset + chunk) : size;
    const res = await request(
      location,
      "PATCH",
      {
        ...auth,
        "upload-offset": String(offset),
        "content-type": "application/offset+octet-stream",
        "content-length": String(end - offset),
      },
      { file, start: offset, end },
    );
    if (res.status !== 204) throw new Error(`tus PATCH at ${offset}: ${res.status} ${res.text}`);
    offset = Number(res.headers["upload-offset"]);
    if (offset !== end) throw new Error(`tus PATCH: offset ${offset}, expected ${end}`);
    fileId = res.headers["upload-file-id"] as string | undefined;
  }
  if (!fileId?.startsWith("fi_")) throw new Error("tus: the last PATCH carried no Upload-File-Id");
  return fileId;
}

/** Runs `upload` while sampling the server's process-tree RSS; seconds and RSS figures in MiB. */
async function measured(pid: number, upload: () => Promise<void>) {
  const before = treeRssKb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssKb(pid))), 100);
  const t = performance.now();
  try {
    await upload();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t) / 1000;
  peak = Math.max(peak, treeRssKb(pid));
  return { seconds, beforeMb: before / 1024, peakMb: peak / 1024 };
}

export default async function bench() {
  const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 2048);
  const size = sizeMb * MiB;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "awhs-bench-upload-"));
  const source = path.join(tmp, "source.bin");
  let own: OwnServer | undefined;
  let bare: BenchProcess | undefined;
  try {
    makeFile(source, size);

    const t = performance.now();
    await promisify(execFile)("cp", [source, path.join(tmp, "copy.bin")]);
    const cpSeconds = (performance.now() - t) / 1000;
    rmSync(path.join(tmp, "copy.bin"));

    own = await ownServer("bench-upload", { LOG_LEVEL: "warn" });
    const key = await own.mintKey();
    const agent_id = await own.createAgent({ name: "bench", kind: "conversational", runtime: { type: "echo" } });
    const url = `${own.server.baseUrl}/api/agents/${agent_id}/upload`;
    // Warm-up: the route's code is loaded before the baseline memory is taken.
    const warm = path.join(tmp, "warm.bin");
    makeFile(warm, MiB);
    await uploadFromDisk(url, key, warm, MiB);

    const tusUrl = `${url}/tus`;
    const chunkMb = Number(process.env.BENCH_TUS_CHUNK_MB ?? 64);
    await tusFromDisk(tusUrl, key, warm, MiB, 0);

    bare = await startProcess({
      name: "bare-upload",
      args: ["bench/bare-upload.mjs"],
      env: { BARE_UPLOAD_DIR: tmp },
      probePath: "/",
    });
    const bareUrl = `${bare.baseUrl}/upload`;
    await uploadFromDisk(bareUrl, key, warm, MiB);
    const floor = await measured(bare.pid, async () => {
      const result = await uploadFromDisk(bareUrl, key, source, size);
      if (result.size_bytes < size) throw new Error(`bare server stored ${result.size_bytes} bytes of ${size}`);
    });

    const pid = own.server.proc.pid!;
    const multipart = await measured(pid, async () => {
      const result = await uploadFromDisk(url, key, source, size);
      if (result.size_bytes !== size) throw new Error(`stored ${result.size_bytes} bytes of ${size}`);
    });
    const resumable = await measured(pid, async () => {
      await tusFromDisk(tusUrl, key, source, size, chunkMb * MiB);
    });

    const mbps = (s: number) => (sizeMb / s).toFixed(1);
    console.log(`file: ${sizeMb} MiB under ${os.tmpdir()} (server DATA_DIR on the same disk)`);
    console.log(
      `| method | seconds | MiB/s | throughput / cp | throughput / bare node:http | RSS before MiB | RSS peak MiB | growth MiB |`,
    );
    console.log(`|---|---|---|---|---|---|---|---|`);
    console.log(`| cp | ${cpSeconds.toFixed(2)} | ${mbps(cpSeconds)} | 1.00 | | | | |`);
    for (const [name, m] of [
      ["bare node:http body to file", floor],
      ["multipart POST", multipart],
      [`tus, ${chunkMb ? `${chunkMb} MiB PATCHes` : "one PATCH"}`, resumable],
    ] as const)
      console.log(
        `| ${name} | ${m.seconds.toFixed(2)} | ${mbps(m.seconds)} | ${(cpSeconds / m.seconds).toFixed(2)} | ` +
          `${(floor.seconds / m.seconds).toFixed(2)} | ` +
          `${m.beforeMb.toFixed(0)} | ${m.peakMb.toFixed(0)} | ${(m.peakMb - m.beforeMb).toFixed(0)} |`,
      );
    console.log(`server VmHWM since start: ${(statusKb(pid, "VmHWM") / 1024).toFixed(0)} MiB`);
  } finally {
    await bare?.stop();
    await own?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}
