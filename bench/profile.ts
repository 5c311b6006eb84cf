// A CPU profile of the production server under one load, summarised
// as the functions and the packages that take the most of its CPU time.
//   npx tsx bench/profile.ts [message|run|async|sync|upload|workflow|health|unauthorized|empty]   (default: message)
// `empty` measures the empty Next route (bench/empty-app) without a profile: the framework's floor.
// Each load prints the server's CPU time per request, which a busy machine disturbs less than req/s.
// Starts node ${SERVER_DIST:-dist}/server.mjs with --cpu-prof on a fresh database (PGlite, or
// PostgreSQL with TEST_DATABASE_URL), drives it with autocannon for BENCH_DURATION seconds
// (default 10; the upload profile sends BENCH_UPLOAD_MB, default 512, as one multipart POST),
// stops it with SIGTERM so that node writes the profile, and prints the summary. The .cpuprofile
// stays in the printed folder (open it in Chrome DevTools > Performance, or speedscope). Needs a production build (npm run build).
// BENCH_SERVER_ENV='{"RATE_LIMIT_PER_MINUTE":"0"}' gives the server more settings (to compare).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ownServer } from "../e2e/api/server";
import { multipartEnvelope } from "../lib/files/multipart-body";
import { startEmptyNext } from "./empty-next";
import { groupCpuSeconds, load } from "./load";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const APP = "app bundle (lib/, routes)";

/** Where a function comes from: a package, Next's bundle, our code, node itself, or V8 (GC, idle). */
function origin(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  if (url.startsWith("node:")) return "node";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (/\.next[^/]*\/server\/chunks/.test(url) || /\.next[^/]*\/server\/app/.test(url)) return APP;
  if (url.endsWith("/server.mjs")) return "server.ts";
  return path.basename(url);
}

/** CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps, the same in every process. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Self time per function and per origin, in ms, from a V8 .cpuprofile, within [from, to] (µs). */
function summarise(profile: Profile, window: { from: number; to: number }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fn = new Map<string, number>();
  /** Inclusive time of our own functions (the app bundle): the function and all it calls. */
  const ours = new Map<string, number>();
  const pkg = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window.from || at > window.to) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = origin(url, functionName);
    const key = `${functionName || "(anonymous)"}  ${where}${url ? `:${lineNumber + 1}` : ""}`;
    fn.set(key, (fn.get(key) ?? 0) + ms);
    pkg.set(where, (pkg.get(where) ?? 0) + ms);
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = node; n; n = byId.get(parent.get(n.id) ?? -1)) {
      const f = n.callFrame;
      if (origin(f.url, f.functionName) !== APP || !f.functionName) continue;
      const k = `${f.functionName}:${f.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      ours.set(k, (ours.get(k) ?? 0) + ms);
    }
    total += ms;
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { total, functions: top(fn, 25), origins: top(pkg, 15), inclusive: top(ours, 30) };
}

function multipartUpload(url: string, key: string, bytes: number): Promise<number> {
  const env = multipartEnvelope({ filename: "profile.bin", contentType: "application/octet-stream" });
  const block = Buffer.alloc(1024 * 1024, 7);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": env.contentType,
        "content-length": String(env.length(bytes)),
      },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.write(env.head);
    let left = bytes;
    const more = () => {
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        if (!req.write(n === block.length ? block : block.subarray(0, n))) return void req.once("drain", more);
      }
      req.end(env.tail);
    };
    more();
  });
}

function report(which: string, figure: Awaited<ReturnType<typeof load>>, cpuMs: number) {
  console.log(
    `${which}: ${figure.rps.toFixed(0)} req/s, p50 ${figure.p50} ms, p99 ${figure.p99} ms, statuses ${figure.statuses}; ` +
      `server CPU ${(cpuMs / figure.requests).toFixed(2)} ms per request (user + system, all its processes)`,
  );
}

/** The floor: the empty Next route under the same load, CPU per request measured the same way. */
async function empty(duration: number) {
  const app = await startEmptyNext();
  try {
    const target = { url: `${app.baseUrl}/api/empty`, connections: 50, duration };
    await load({ ...target, duration: 2, connections: 10 });
    const cpu = groupCpuSeconds(app.pid);
    const figure = await load(target);
    report("empty Next route", figure, (groupCpuSeconds(app.pid) - cpu) * 1000);
  } finally {
    await app.stop();
  }
}

async function main() {
  const which = process.argv[2] ?? "message";
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  if (which === "empty") return empty(duration);
  const dir = mkdtempSync(path.join(os.tmpdir(), "awhs-profile-"));
  const window = { from: 0, to: 0 };
  const own = await ownServer(
    "profile",
    { LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", ...(JSON.parse(process.env.BENCH_SERVER_ENV ?? "{}") as object) },
    { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] },
  );
  try {
    const key = await own.mintKey();
    const auth = { authorization: `Bearer ${key}` };
    const base = own.server.baseUrl;
    const echo = await own.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });
    const trigger = (prefer?: string) => ({
      url: `${base}/api/agents/webhook/${echo}`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json", ...(prefer ? { prefer } : {}) },
      body: JSON.stringify({ message: "profile" }),
    });
    if (which === "workflow") {
      // The engine: BENCH_ITEMS rows (default 5,000) through the two transform steps of the
      // workflow benchmark, from the trigger to `completed`; CPU per item.
      const n = Number(process.env.BENCH_ITEMS ?? 5000);
      const agent = await own.createAgent({
        name: "wf",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [
            { id: "total", type: "transform", expression: "$merge([item, {'total': item.qty * item.price}])" },
            {
              id: "label",
              type: "transform",
              expression: "$merge([item, {'big': item.total > 500, 'label': $uppercase(item.name)}])",
            },
          ],
        },
      });
      const rows = Array.from({ length: n }, (_, i) => ({
        id: i,
        name: `item ${i}`,
        qty: (i % 17) + 1,
        price: (i % 101) + 0.5,
      }));
      window.from = nowUs();
      const cpu = groupCpuSeconds(own.server.proc.pid!);
      const t = performance.now();
      const res = await fetch(`${base}/api/agents/webhook/${agent}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ rows }),
      });
      const { run_id } = (await res.json()) as { run_id: string };
      for (;;) {
        const run = (await (
          await fetch(`${base}/api/agents/${agent}/runs/${run_id}`, { headers: { ...auth, prefer: "wait=5" } })
        ).json()) as { status: string };
        if (run.status === "completed") break;
        if (run.status !== "running" && run.status !== "pending") throw new Error(`run ended ${run.status}`);
      }
      const seconds = (performance.now() - t) / 1000;
      const cpuMs = (groupCpuSeconds(own.server.proc.pid!) - cpu) * 1000;
      window.to = nowUs();
      console.log(
        `workflow: ${n} items in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(0)} items/s); ` +
          `server CPU ${((cpuMs * 1000) / n).toFixed(0)} µs per item`,
      );
    } else if (which === "upload") {
      window.from = nowUs();
      const mb = Number(process.env.BENCH_UPLOAD_MB ?? 512);
      const status = await multipartUpload(`${base}/api/agents/${echo}/upload`, key, mb * 1024 * 1024);
      if (status !== 200) throw new Error(`upload answered ${status}`);
      window.to = nowUs();
    } else {
      let target: Parameters<typeof load>[0];
      if (which === "async") target = { ...trigger("respond-async"), connections: 50, duration };
      else if (which === "sync") target = { ...trigger(), connections: 50, duration };
      else if (which === "run") {
        const agent = await own.createAgent({
          name: "run",
          kind: "workflow",
          runtime: { type: "echo" },
          workflow: {
            inputs: { rows: { type: "array", required: true } },
            items: { from: "rows" },
            steps: [{ id: "t", type: "transform", expression: "item" }],
          },
        });
        const res = await fetch(`${base}/api/agents/webhook/${agent}`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ rows: [{ n: 1 }] }),
        });
        const { run_id } = (await res.json()) as { run_id: string };
        target = { url: `${base}/api/agents/${agent}/runs/${run_id}`, headers: auth, connections: 50, duration };
      } else if (which === "health") {
        target = { url: `${base}/api/health`, connections: 50, duration };
      } else if (which === "unauthorized") {
        // The route wrapper's floor: request id, envelope, a 401 decided without the database.
        target = { url: `${base}/api/agents/${echo}/sessions/ses_x/messages/msg_x`, connections: 50, duration };
      } else {
        const { url, ...init } = trigger();
        const { session_id, message_id } = (await (await fetch(url, init)).json()) as Record<string, string>;
        target = {
          url: `${base}/api/agents/${echo}/sessions/${session_id}/messages/${message_id}`,
          headers: auth,
          connections: 50,
          duration,
        };
      }
      await load({ ...target, duration: 2, connections: 10 }); // warm-up
      window.from = nowUs();
      const cpu = groupCpuSeconds(own.server.proc.pid!);
      const figure = await load(target);
      const cpuMs = (groupCpuSeconds(own.server.proc.pid!) - cpu) * 1000;
      window.to = nowUs();
      report(which, figure, cpuMs);
    }
  } finally {
    await own.server.stop("SIGTERM"); // node writes the profile on exit
    await own.dispose();
  }
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const { total, functions, origins, inclusive } = summarise(
    JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile,
    window,
  );
  const pct = (ms: number) => `${((100 * ms) / total).toFixed(1)}%`.padStart(6);
  console.log(`\nprofile: ${path.join(dir, file)} (${(total / 1000).toFixed(1)} s sampled during the load)`);
  console.log("\nself time by origin:");
  for (const [k, ms] of origins) console.log(`${pct(ms)}  ${k}`);
  console.log("\nself time by function:");
  for (const [k, ms] of functions) console.log(`${pct(ms)}  ${k}`);
  console.log("\ntotal time (self and callees) of the app bundle's functions (PROFILE_BUILD=1 builds keep names):");
  for (const [k, ms] of inclusive) console.log(`${pct(ms)}  ${k}`);
}

await main();
