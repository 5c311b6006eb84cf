// Upload throughput and server memory: a large file streamed as multipart through the real server
// (node dist/server.mjs on a temp data folder), against `cp` of the same file on the same disk.
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
function uploadFromDisk(url: string, key: string, file: string, size: number): Promise<any> {
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

export default async function bench() {
  const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 2048);
  const size = sizeMb * MiB;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "aws-bench-upload-"));
  const source = path.join(tmp, "source.bin");
  let own: OwnServer | undefined;
  try {
    makeFile(source, size);

    let t = performance.now();
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

    const pid = own.server.proc.pid!;
    const rssBefore = treeRssKb(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, treeRssKb(pid))), 100);
    t = performance.now();
    const result = await uploadFromDisk(url, key, source, size);
    const uploadSeconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, treeRssKb(pid));
    if (result.size_bytes !== size) throw new Error(`stored ${result.size_bytes} bytes of ${size}`);

    const mbps = (s: number) => (sizeMb / s).toFixed(1);
    console.log(`file: ${sizeMb} MiB under ${os.tmpdir()} (server DATA_DIR on the same disk)`);
    console.log(`cp baseline:  ${cpSeconds.toFixed(2)} s  ${mbps(cpSeconds)} MiB/s`);
    console.log(`upload:       ${uploadSeconds.toFixed(2)} s  ${mbps(uploadSeconds)} MiB/s`);
    console.log(
      `upload / cp:  ${(uploadSeconds / cpSeconds).toFixed(2)}x the time (throughput ${((cpSeconds / uploadSeconds) * 100).toFixed(0)}% of cp)`,
    );
    console.log(
      `server RSS (process tree): ${(rssBefore / 1024).toFixed(0)} MiB before, ${(rssPeak / 1024).toFixed(0)} MiB peak, ` +
        `growth ${((rssPeak - rssBefore) / 1024).toFixed(0)} MiB; VmHWM since start ${(statusKb(pid, "VmHWM") / 1024).toFixed(0)} MiB`,
    );
  } finally {
    await own?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}
