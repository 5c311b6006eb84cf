// The deployment at scale on one machine (docs/deploy.md, At scale): two app processes
// (RUN_WORKER=false, two ports) and two standalone workers (dist/worker.mjs, WORKER_PORT) on one
// fresh PostgreSQL database, optionally with S3 storage (s3rver, e2e/api/s3-server.ts). Under load
// (autocannon: asynchronous triggers on both apps at once) it checks that the processes behave as
// one service:
//   replies     every 202 is one message, completed, its upstream called exactly once
//   revocation  a key revoked on app A is refused on app B within KEY_CACHE_TTL_MS
//   run         a workflow run of many items completes with exact counts although the worker running
//               it is sent SIGTERM mid-run (its items in flight finish, it hands the run over, the
//               other worker finishes it; the receiver sees no Idempotency-Key twice)
//   upload      a file uploaded on app A is downloaded from app B, byte for byte
//   callback    a completion callback arrives exactly once (when lib/callbacks delivers them)
// Used by `npm run demo:scale` (bench/scale-demo.ts, the full size) and e2e/api/scale.test.ts (CI size).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createFreshPostgresDatabase } from "../test-support/postgres";
import {
  admin,
  dbEnv,
  freePort,
  LOCAL_UPSTREAMS_ENV,
  startServer,
  type DbTarget,
  type RunningServer,
} from "../e2e/api/server";
import autocannon from "autocannon";
import type { Figure as LoadFigure } from "./load";

/** A load's figures (bench/load.ts) and how long it lasted. */
export type Figure = LoadFigure & { seconds: number };

const root = path.resolve(import.meta.dirname, "..");

export interface ScaleOptions {
  /** PostgreSQL admin URL: a fresh database is created on it and dropped at the end. */
  adminUrl: string;
  /** Asynchronous triggers sent to each app (both at once). */
  triggers: number;
  /** Connections per app. */
  connections: number;
  /** Items of the workflow run that outlives a worker. */
  runItems: number;
  /** Items processed at once by that run (its `concurrency`). */
  runConcurrency: number;
  /** The fake upstream's delay per workflow item, so that the run lasts long enough to be interrupted. */
  itemDelayMs: number;
  /** S3 storage through s3rver: true, false, or "auto" (when the s3 test server exists). */
  s3: boolean | "auto";
  /** Slack over KEY_CACHE_TTL_MS allowed for revocation to reach app B (bounded polling, not a timing test). */
  revocationSlackMs: number;
  /** How long to wait for a completion callback to arrive. */
  callbackWaitMs: number;
  log?: (line: string) => void;
}

export interface Check {
  name: string;
  /** undefined: not applicable here (the reason is in `detail`). */
  ok: boolean | undefined;
  detail: string;
}

export interface ScaleResult {
  storage: string;
  load: { app: string; figure: Figure }[];
  checks: Check[];
}

const KEY_CACHE_TTL_MS = 2_000;
const SIGNING_SECRET = "scale-demo-signing-secret-0123456789";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until `done` holds or `ms` passed; returns the last value. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms: number, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await probe();
  while (!done(v) && Date.now() < deadline) {
    await sleep(every);
    v = await probe();
  }
  return v;
}

// --- the fake upstream: agent replies, workflow items, file captures, callbacks ---------------------

interface Upstream {
  url: string;
  replies: number;
  /** Workflow item calls by item number. */
  items: Map<number, number>;
  /** Workflow item calls by their Idempotency-Key (run, item, step): more than 1 is a repeat. */
  keys: Map<string, number>;
  /** Bodies sent to /capture. */
  captured: unknown[];
  /** Callback requests, by message id (or the body when none is found). */
  callbacks: Map<string, number>;
  close(): Promise<void>;
}

async function startUpstream(itemDelayMs: number): Promise<Upstream> {
  const u = {
    replies: 0,
    items: new Map<number, number>(),
    keys: new Map<string, number>(),
    captured: [] as unknown[],
    callbacks: new Map(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const ok = (payload: unknown, delay = 0) =>
        setTimeout(
          () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload)),
          delay,
        );
      const p = req.url ?? "";
      if (p.startsWith("/reply")) {
        u.replies++;
        ok({ content: "ok" });
      } else if (p.startsWith("/item")) {
        const n = Number(JSON.stringify(body).match(/"n":(\d+)/)?.[1] ?? -1);
        u.items.set(n, (u.items.get(n) ?? 0) + 1);
        const key = String(req.headers["idempotency-key"]);
        u.keys.set(key, (u.keys.get(key) ?? 0) + 1);
        ok({ n }, itemDelayMs);
      } else if (p.startsWith("/capture")) {
        u.captured.push(body);
        ok({ content: "captured" });
      } else if (p.startsWith("/callback")) {
        const id = JSON.stringify(body).match(/"(msg_[A-Za-z0-9]+)"/)?.[1] ?? text;
        u.callbacks.set(id, (u.callbacks.get(id) ?? 0) + 1);
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return Object.assign(u, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

// --- standalone workers ----------------------------------------------------------------------------

interface Worker {
  name: string;
  proc: ChildProcess;
  base: string;
  logFile: string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

async function startWorker(name: string, env: Record<string, string>): Promise<Worker> {
  const port = await freePort();
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), `awhs-scale-${name}-`)), "worker.log");
  const out = createWriteStream(logFile);
  const proc = spawn(process.execPath, [`${process.env.SERVER_DIST || "dist"}/worker.mjs`], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      WORKER_PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  proc.stdout!.pipe(out);
  proc.stderr!.pipe(out);
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const kill = (signal: NodeJS.Signals) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    try {
      process.kill(-proc.pid!, signal);
    } catch {
      /* gone */
    }
  };
  const base = `http://127.0.0.1:${port}`;
  const ready = await until(
    () =>
      fetch(`${base}/ready`).then(
        (r) => r.status,
        () => 0,
      ),
    (s) => s === 200 || proc.exitCode !== null,
    90_000,
    200,
  );
  if (ready !== 200) {
    kill("SIGKILL");
    throw new Error(`worker ${name} did not become ready; see ${logFile}`);
  }
  return { name, proc, base, logFile, exited, kill };
}

/** Calls of the `http` runtime type this worker made (its own metrics, GET /metrics). */
async function httpCallsOf(w: Worker): Promise<number> {
  const text = await fetch(`${w.base}/metrics`).then(
    (r) => (r.ok ? r.text() : ""),
    () => "",
  );
  let n = 0;
  for (const m of text.matchAll(/^agent_webhook_upstream_request_duration_seconds_count\{([^}]*)\} (\d+)/gm)) {
    if (m[1]!.includes('runtime="http"')) n += Number(m[2]);
  }
  return n;
}

// --- the scenario ------------------------------------------------------------------------------------

export async function runScale(opts: ScaleOptions): Promise<ScaleResult> {
  const t0 = performance.now();
  const say = (line: string) => opts.log?.(`[${((performance.now() - t0) / 1000).toFixed(1)} s] ${line}`);
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const checks: Check[] = [];
  const check = (name: string, ok: boolean | undefined, detail: string) => {
    checks.push({ name, ok, detail });
    say(`${ok === undefined ? "SKIP" : ok ? "PASS" : "FAIL"}  ${name}: ${detail}`);
  };
  try {
    // Database, storage, organization.
    const fresh = await createFreshPostgresDatabase(opts.adminUrl);
    cleanups.push(() => fresh.drop());
    const tmp = mkdtempSync(path.join(os.tmpdir(), "awhs-scale-"));
    cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
    const target: DbTarget = { dataDir: path.join(tmp, "data"), databaseUrl: fresh.url };
    let storageEnv: Record<string, string> = {};
    let storage = "local disk (DATA_DIR/files, one folder shared by the processes)";
    const s3Helper = path.join(root, "e2e/api/s3-server.ts");
    if (opts.s3 === true || (opts.s3 === "auto" && existsSync(s3Helper))) {
      const { startS3Server } = await import("../e2e/api/s3-server");
      const s3 = await startS3Server();
      cleanups.push(() => s3.close());
      storageEnv = s3.env("scale");
      storage = `S3 (s3rver, ${storageEnv.STORAGE_URL})`;
    }
    say(`database ${new URL(fresh.url).pathname.slice(1)}, storage ${storage}`);
    const org = await admin(target, [
      "bootstrap",
      "--org",
      "scale",
      "--email",
      "scale@example.com",
      "--password",
      "correct horse battery",
    ]);
    const upstream = await startUpstream(opts.itemDelayMs);
    cleanups.push(() => upstream.close());

    // Processes: two apps without workers, two workers.
    const shared = {
      ...storageEnv,
      ...LOCAL_UPSTREAMS_ENV,
      SIGNING_SECRET,
      KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
    };
    const apps: RunningServer[] = [];
    cleanups.push(() => Promise.all(apps.map((a) => a.stop("SIGKILL"))));
    // Started together (migrations and the first start run under an advisory lock).
    const starting = [1, 2].map(() => startServer(target, { ...shared, RUN_WORKER: "false", WEB_CONCURRENCY: "1" }));
    for (const app of await Promise.allSettled(starting)) if (app.status === "fulfilled") apps.push(app.value);
    if (apps.length < 2) throw new Error("an app did not start");
    const [appA, appB] = apps as [RunningServer, RunningServer];
    const workers: Worker[] = [];
    cleanups.push(() => workers.forEach((w) => w.kill("SIGKILL")));
    // The shortest bound (1 s), far below what the rest of the run needs (items x delay /
    // concurrency), so that the worker interrupted mid-run hands its job back.
    const launching = ["worker-1", "worker-2"].map((name) =>
      startWorker(name, { ...dbEnv(target), ...shared, SHUTDOWN_TIMEOUT_MS: "10000" }),
    );
    for (const w of await Promise.allSettled(launching)) if (w.status === "fulfilled") workers.push(w.value);
    if (workers.length < 2) throw new Error("a worker did not start");
    say(`app A ${appA.baseUrl}, app B ${appB.baseUrl}, workers ${workers.map((w) => w.base).join(", ")}`);

    /** A JSON call; a connection that fails is status 0 (reported by the check, not thrown). */
    const call = async (app: RunningServer, method: string, p: string, auth: string, body?: unknown, headers = {}) => {
      try {
        const res = await fetch(`${app.baseUrl}${p}`, {
          method,
          headers: {
            authorization: `Bearer ${auth}`,
            ...(body ? { "content-type": "application/json" } : {}),
            ...headers,
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      } catch (err) {
        return { status: 0, body: { error: { message: (err as Error).message } } as any };
      }
    };
    /** A check that throws is a failed check, with the reason. */
    const guarded = (name: string, work: () => Promise<unknown>) =>
      work().catch((err) => check(name, false, `error: ${(err as Error).message}`));
    const orgPath = `/api/v1/organizations/${org.organization_id}`;
    const mint = async (name: string) => {
      const r = await call(appA, "POST", `${orgPath}/access-keys`, org.user_token!, {
        name,
        permissions: ["agents:invoke"],
      });
      if (r.status !== 201) throw new Error(`mint key: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { key: string; key_id: string };
    };
    const agent = async (spec: unknown) => {
      const r = await call(appA, "POST", `${orgPath}/agents`, org.user_token!, spec);
      if (r.status !== 201) throw new Error(`create agent: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.agent_id as string;
    };
    const key = (await mint("load")).key;
    const replyAgent = await agent({
      name: "replies",
      kind: "conversational",
      runtime: { type: "http", url: `${upstream.url}/reply`, timeout_ms: 60_000 },
    });
    const captureAgent = await agent({
      name: "capture",
      kind: "conversational",
      runtime: { type: "http", url: `${upstream.url}/capture`, timeout_ms: 60_000 },
    });
    const runAgent = await agent({
      name: "items",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true } },
        items: { from: "rows" },
        concurrency: opts.runConcurrency,
        steps: [{ id: "send", type: "http", url: `${upstream.url}/item`, timeout_ms: 60_000 }],
      },
    });

    // Warm-up: each app answers one trigger of each agent before the load (first requests load code).
    for (const app of apps) {
      const warm = await call(app, "POST", `/api/agents/webhook/${replyAgent}`, key, { message: "warm-up" });
      if (warm.status !== 200) throw new Error(`warm-up trigger answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    }

    // The load: asynchronous triggers on both apps at once, a fixed number each (so that every trigger
    // sent is answered and counted), while the checks run.
    const trigger = async (app: RunningServer): Promise<Figure> => {
      const r = await autocannon({
        url: `${app.baseUrl}/api/agents/webhook/${replyAgent}`,
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "respond-async" },
        body: JSON.stringify({ message: "hello" }),
        connections: opts.connections,
        amount: opts.triggers,
        timeout: 60,
      });
      return {
        rps: r.requests.total / r.duration,
        seconds: r.duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        statuses: Object.entries(r.statusCodeStats)
          .map(([code, st]) => `${code}:${st.count}`)
          .join(" "),
      };
    };
    say(`load: ${opts.triggers} asynchronous triggers on each app, ${opts.connections} connections each`);
    const loads = Promise.all([trigger(appA), trigger(appB)]);

    // Revocation: a key used on B (now cached there) is revoked on A.
    const revocation = guarded("revocation A -> B", async () => {
      const k = await mint("revoked");
      const probe = () => call(appB, "GET", `/api/agents/${replyAgent}/sessions`, k.key).then((r) => r.status);
      const before = await probe();
      const del = await call(appA, "DELETE", `${orgPath}/access-keys/${k.key_id}`, org.user_token!);
      const revokedAt = Date.now();
      const after = await until(probe, (s) => s === 401, KEY_CACHE_TTL_MS + opts.revocationSlackMs + 10_000, 50);
      const ms = Date.now() - revokedAt;
      const ok = before === 200 && del.status < 300 && after === 401 && ms <= KEY_CACHE_TTL_MS + opts.revocationSlackMs;
      check(
        "revocation A -> B",
        ok,
        `key answered ${before} on B, revoked on A (${del.status}), refused on B (${after}) after ${ms} ms (KEY_CACHE_TTL_MS ${KEY_CACHE_TTL_MS})`,
      );
    });

    // Upload on A, download from B.
    const files = guarded("upload A -> download B", async () => {
      const bytes = randomBytes(256 * 1024);
      const form = new FormData();
      form.append("file", new Blob([bytes], { type: "application/octet-stream" }), "scale.bin");
      const up = await fetch(`${appA.baseUrl}/api/agents/${captureAgent}/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const file = (await up.json()) as { file_id: string };
      const sent = await call(appB, "POST", `/api/agents/webhook/${captureAgent}`, key, {
        message: "the file",
        attachments: [{ file_id: file.file_id }],
      });
      const url = JSON.stringify(upstream.captured.at(-1) ?? {}).match(/"url":"([^"]+)"/)?.[1];
      let got: Buffer | undefined;
      let status = 0;
      if (url) {
        const res = await fetch(url);
        status = res.status;
        got = Buffer.from(await res.arrayBuffer());
      }
      const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex").slice(0, 12);
      // The link B signed: B's own download route, or (S3 storage) a presigned URL of the bucket.
      const where = !url
        ? "none"
        : url.startsWith(appB.baseUrl)
          ? "app B"
          : url.startsWith(appA.baseUrl)
            ? "app A"
            : "the bucket";
      check(
        "upload A -> download B",
        up.status === 200 &&
          sent.status === 200 &&
          where !== "none" &&
          where !== "app A" &&
          status === 200 &&
          !!got?.equals(bytes),
        `uploaded ${bytes.length} bytes on A (${up.status}), trigger on B with the file (${sent.status}), its link points at ${where}, download ${status}, sha256 ${sha(bytes)} ${got ? (got.equals(bytes) ? "=" : "!=") : "-"} ${got ? sha(got) : "-"}`,
      );
    });

    // A run of many items; the worker running it is sent SIGTERM mid-run.
    const run = guarded("run survives SIGTERM of its worker", async () => {
      const rows = Array.from({ length: opts.runItems }, (_, n) => ({ n }));
      const started = await call(appA, "POST", `/api/agents/webhook/${runAgent}`, key, { rows });
      if (started.status !== 202)
        throw new Error(`the run's trigger on A answered ${started.status}: ${JSON.stringify(started.body)}`);
      const runPath = `/api/agents/${runAgent}/runs/${started.body.run_id}`;
      const get = () => call(appB, "GET", runPath, key).then((r) => r.body);
      // Mid-run: a tenth of the items done.
      await until(get, (r) => (r?.item_counts?.completed ?? 0) >= Math.ceil(opts.runItems / 10), 120_000);
      const calls = await Promise.all(workers.map(httpCallsOf));
      const victim = workers[calls[0]! >= calls[1]! ? 0 : 1]!;
      const survivor = workers.find((w) => w !== victim)!;
      const doneBefore = (await get()).item_counts.completed as number;
      victim.kill("SIGTERM");
      const code = await victim.exited;
      const survivorBefore = await httpCallsOf(survivor);
      const end = await until(get, (r) => ["completed", "failed", "cancelled"].includes(r.status), 300_000, 250);
      const survivorCalls = (await httpCallsOf(survivor)) - survivorBefore;
      const distinct = upstream.items.size;
      // Repeats as a receiver sees them: a key (run, item, step) that arrived more than once.
      const repeats = [...upstream.keys.values()].reduce((a, b) => a + b - 1, 0);
      const counts = end.item_counts;
      const ok =
        code === 0 &&
        end.status === "completed" &&
        counts.completed === opts.runItems &&
        counts.total === opts.runItems &&
        counts.failed === 0 &&
        distinct === opts.runItems &&
        upstream.keys.size === opts.runItems &&
        repeats === 0 &&
        survivorCalls > 0;
      check(
        "run survives SIGTERM of its worker",
        ok,
        `${opts.runItems} items; ${victim.name} (had ${calls[workers.indexOf(victim)]} upstream calls) sent SIGTERM at ${doneBefore} done, exited ${code}; ${survivor.name} made ${survivorCalls} more calls; run ${end.status} with ${JSON.stringify(counts)}; ${distinct} distinct items sent, ${repeats} sent again (the receiver's count of repeated Idempotency-Keys)`,
      );
    });

    // A completion callback (when the service delivers them).
    const callback = (async () => {
      const r = await call(
        appB,
        "POST",
        `/api/agents/webhook/${replyAgent}`,
        key,
        { message: "call me back", callback_url: `${upstream.url}/callback` },
        { prefer: "respond-async" },
      );
      if (r.status === 400)
        return check("callback exactly once", undefined, `callbacks not available: ${r.body?.error?.message}`);
      const id = r.body?.message_id as string;
      if (r.status !== 202) return { id, arrived: 0, r };
      const arrived = await until(
        async () => upstream.callbacks.get(id) ?? 0,
        (n) => n >= 1,
        opts.callbackWaitMs,
        200,
      );
      return { id, arrived, r };
    })();

    const figures = await loads;
    await Promise.all([revocation, files, run]);
    const cb = await callback;

    // Replies: every accepted trigger is one message, completed, its upstream called once.
    // The warm-up triggers are replies too.
    const warmups = apps.length;
    const accepted = figures.reduce((n, f) => n + Number(/\b202:(\d+)/.exec(f.statuses)?.[1] ?? 0), 0);
    const errors = figures.reduce((n, f) => n + f.errors + f.timeouts, 0);
    const db = new pg.Client({ connectionString: fresh.url });
    await db.connect();
    cleanups.push(() => db.end());
    const states = async () =>
      Object.fromEntries(
        (
          await db.query(
            `SELECT status, count(*)::int AS n FROM messages WHERE agent_id = $1 AND role = 'assistant' GROUP BY status`,
            [replyAgent],
          )
        ).rows.map((r) => [r.status, r.n]),
      ) as Record<string, number>;
    const settled = await until(states, (s) => !s.processing, 180_000, 500);
    const completed = settled.completed ?? 0;
    // The callback message (if any) is one more completed reply of the same agent.
    const extra = cb && typeof cb === "object" && cb.r.status === 202 ? 1 : 0;
    const recoveries = (
      await db.query(`SELECT coalesce(sum(recoveries), 0)::int AS n FROM messages WHERE agent_id = $1`, [replyAgent])
    ).rows[0].n;
    check(
      "replies answered exactly once",
      errors === 0 &&
        completed === accepted + extra + warmups &&
        upstream.replies === accepted + extra + warmups &&
        Object.keys(settled).length === 1,
      `${accepted} triggers accepted (202) on A and B (+ ${warmups} warm-up${extra ? " + 1 with a callback" : ""}), ${errors} client errors; messages ${JSON.stringify(settled)}; upstream called ${upstream.replies} times; ${recoveries} recoveries`,
    );
    if (cb && typeof cb === "object") {
      await sleep(2_000); // a duplicate would come by now: deliveries are immediate
      const n = upstream.callbacks.get(cb.id) ?? 0;
      check(
        "callback exactly once",
        cb.r.status === 202 && n === 1,
        `trigger on B ${cb.r.status}; callback for ${cb.id} arrived ${n} time(s)`,
      );
    }
    return {
      storage,
      load: [
        { app: "A", figure: figures[0]! },
        { app: "B", figure: figures[1]! },
      ],
      checks,
    };
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  }
}
