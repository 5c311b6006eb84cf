// The standalone worker (npm run worker): on PostgreSQL it runs the workflows of web servers that
// run none (RUN_WORKER=false) and takes over the replies of one that died; on the embedded database
// it refuses while the server owns the data folder.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { dbEnv, freePort, LOCAL_UPSTREAMS_ENV, ownServer, type OwnServer } from "./server";

const root = path.resolve(import.meta.dirname, "../..");
let own: OwnServer | undefined;
let worker: ChildProcess | undefined;
let drainServer: OwnServer | undefined;
const drainWorkers: ChildProcess[] = [];
afterAll(async () => {
  for (const w of [worker, ...drainWorkers]) if (w?.pid && w.exitCode === null) process.kill(-w.pid, "SIGKILL");
  await own?.dispose();
  await drainServer?.dispose();
});

/** The bundled worker (`npm run worker` runs dist/worker.mjs; SERVER_DIST as the server's bundle). */
function startWorker(env: Record<string, string>) {
  const proc = spawn(process.execPath, [`${process.env.SERVER_DIST || "dist"}/worker.mjs`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", ...LOCAL_UPSTREAMS_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  proc.stdout!.on("data", (d) => (output += d));
  proc.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  return { proc, output: () => output, exited };
}

/** An upstream for the `http` runtime that holds every reply until `open()`. */
async function gatedUpstream() {
  let open = false;
  let held: (() => void)[] = [];
  let seen = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen++;
      const answer = () => res.writeHead(200, { "content-type": "application/json" }).end('{"content":"recovered"}');
      if (open) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  upstreams.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/reply`,
    seen: () => seen,
    open() {
      open = true;
      for (const a of held) a();
      held = [];
    },
  };
}

const upstreams: http.Server[] = [];
afterAll(async () => {
  for (const u of upstreams) {
    u.closeAllConnections();
    await new Promise((r) => u.close(r));
  }
});

describe("standalone worker", () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "runs the workflows of a server that runs no worker, and takes over the replies of a server that died",
    { timeout: 300_000 },
    async () => {
      own = await ownServer("worker", { RUN_WORKER: "false", REPLY_LEASE_SECONDS: "4" });
      const key = await own.mintKey();
      const gate = await gatedUpstream();
      const echo = await own.createAgent(ECHO_AGENT);
      const gated = await own.createAgent({
        name: "gated",
        kind: "conversational",
        runtime: { type: "http", url: gate.url, timeout_ms: 120_000 },
      });
      const wf = await own.createAgent(SIMPLE_WORKFLOW);
      // Replies are produced by the process that accepted the trigger, worker or not.
      const res = await own.call("POST", `/api/agents/webhook/${echo}`, { auth: key, body: { message: "hello" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "completed", response: "Echo: hello" });
      // Runs need a worker: without one the run waits, pending.
      const run = await own.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [{ a: 1 }] } });
      expect(run.status).toBe(202);
      const runPath = `/api/agents/${wf}/runs/${run.body.run_id}`;
      expect((await own.call("GET", runPath, { auth: key })).body.status).toBe("pending");

      const w = startWorker(dbEnv(own.target));
      worker = w.proc;
      const deadline = Date.now() + 60_000;
      while (!w.output().includes("worker started") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect(w.output()).toContain("worker started");
      let done = await own.call("GET", runPath, { auth: key, headers: { prefer: "wait=10" } });
      for (let i = 0; i < 20 && done.body.status !== "completed"; i++)
        done = await own.call("GET", runPath, { auth: key, headers: { prefer: "wait=5" } });
      expect(done.body.status).toBe("completed");

      // A reply in flight when its server dies is taken over by the worker once its lease runs out.
      const accepted = await own.call("POST", `/api/agents/webhook/${gated}`, {
        auth: key,
        body: { message: "are you there" },
        headers: { prefer: "respond-async" },
      });
      expect(accepted.status).toBe(202);
      while (gate.seen() < 1) await new Promise((r) => setTimeout(r, 100));
      await own.server.stop("SIGKILL");
      gate.open();
      const db = new pg.Client({ connectionString: own.target.databaseUrl });
      await db.connect();
      try {
        const state = async () =>
          (await db.query("SELECT status, content, recoveries FROM messages WHERE id = $1", [accepted.body.message_id]))
            .rows[0];
        let row = await state();
        for (let i = 0; i < 300 && row.status === "processing"; i++) {
          await new Promise((r) => setTimeout(r, 200));
          row = await state();
        }
        expect(row).toMatchObject({ status: "completed", content: "recovered", recoveries: 1 });
      } finally {
        await db.end();
      }
    },
  );

  it.runIf(!process.env.TEST_DATABASE_URL)(
    "refuses to open the embedded database while the server owns it",
    { timeout: 300_000 },
    async () => {
      own = await ownServer("worker-lock");
      const w = startWorker(dbEnv(own.target));
      worker = w.proc;
      expect(await w.exited).toBe(1);
      expect(w.output()).toMatch(/in use by process \d+/);
    },
  );
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until `done` holds (at most `ms`); returns the last result. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await probe();
  while (!done(v) && Date.now() < deadline) {
    await sleep(100);
    v = await probe();
  }
  return v;
}

describe("standalone worker: probes, metrics and graceful shutdown", () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "answers /health, /ready and /metrics on WORKER_PORT; on SIGTERM finishes its running job, or hands it back to another worker",
    { timeout: 300_000 },
    async () => {
      const own = (drainServer = await ownServer("worker-drain", { RUN_WORKER: "false" }));
      const key = await own.mintKey();
      const token = "worker-metrics-token-0123456789";
      const gateA = await gatedUpstream();
      const gateB = await gatedUpstream();
      const gatedWorkflow = (name: string, url: string) =>
        own.createAgent({
          name,
          kind: "workflow",
          runtime: { type: "echo" },
          workflow: {
            inputs: { rows: { type: "array", required: true } },
            items: { from: "rows" },
            steps: [{ id: "send", type: "http", url, timeout_ms: 120_000 }],
          },
        });
      const wfA = await gatedWorkflow("gated-a", gateA.url);
      const wfB = await gatedWorkflow("gated-b", gateB.url);
      const trigger = async (wf: string) => {
        const res = await own.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [{ n: 1 }] } });
        expect(res.status).toBe(202);
        return `/api/agents/${wf}/runs/${res.body.run_id}`;
      };
      const run = async (p: string) => (await own.call("GET", p, { auth: key })).body;
      const launch = async (extra: Record<string, string>) => {
        const port = await freePort();
        const w = startWorker({ ...dbEnv(own.target), HOST: "127.0.0.1", WORKER_PORT: String(port), ...extra });
        drainWorkers.push(w.proc);
        const base = `http://127.0.0.1:${port}`;
        const health = await until(
          () =>
            fetch(`${base}/health`).then(
              (r) => r.status,
              () => 0,
            ),
          (s) => s === 200 || w.proc.exitCode !== null,
        );
        expect(health, w.output()).toBe(200);
        return { ...w, base };
      };

      // 1. Probes and metrics, as the server's.
      const a = await launch({ METRICS_TOKEN: token, SHUTDOWN_TIMEOUT_MS: "60000" });
      const ready = await fetch(`${a.base}/ready`);
      expect([ready.status, await ready.json()]).toEqual([
        200,
        { status: "ready", checks: { database: "ok", queue: "ok" } },
      ]);
      const refused = await fetch(`${a.base}/metrics`);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe("unauthorized");
      const notFound = await fetch(`${a.base}/api/agents`);
      expect(notFound.status).toBe(404);
      const post = await fetch(`${a.base}/ready`, { method: "POST" });
      expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);

      const runA = await trigger(wfA);
      await until(
        async () => gateA.seen(),
        (n) => n >= 1,
      );
      const scrape = async () => {
        const res = await fetch(`${a.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
        return res.text();
      };
      const text = await until(scrape, (t) => t.includes('agent_webhook_queue_active{queue="run"} 1'));
      expect(text).toContain('agent_webhook_queue_active{queue="run"} 1');
      expect(text).toContain('agent_webhook_runs{state="running"} 1');
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^agent_webhook_scrape_processes\{state="answered"\} 1$/m);

      // 2. SIGTERM while the job waits on its upstream: not ready, still running it, then exit 0.
      process.kill(a.proc.pid!, "SIGTERM");
      const notReady = await until(
        () => fetch(`${a.base}/ready`).then(async (r) => ({ status: r.status, body: await r.json() })),
        (r) => r.status === 503,
      );
      expect(notReady.status).toBe(503);
      expect(notReady.body.error.details).toEqual({ shutting_down: true });
      expect(a.proc.exitCode).toBeNull();
      gateA.open();
      expect(await a.exited).toBe(0);
      const doneA = await run(runA);
      expect(doneA.status).toBe("completed");
      expect(doneA.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 0, total: 1 });
      expect(gateA.seen()).toBe(1);

      // 3. A job that outlasts SHUTDOWN_TIMEOUT_MS is handed back: the worker exits 0 and another
      //    worker runs it to the end, the item counted once.
      const b = await launch({ SHUTDOWN_TIMEOUT_MS: "1000" });
      const runB = await trigger(wfB);
      await until(
        async () => gateB.seen(),
        (n) => n >= 1,
      );
      process.kill(b.proc.pid!, "SIGTERM");
      expect(await b.exited).toBe(0);
      expect(b.output()).toContain("worker stopped");
      expect((await run(runB)).status).not.toMatch(/completed|failed/);
      gateB.open();
      await launch({});
      const doneB = await until(
        () => run(runB),
        (r) => r.status === "completed" || r.status === "failed",
      );
      expect(doneB.status).toBe("completed");
      expect(doneB.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 0, total: 1 });
      expect(gateB.seen()).toBe(2);
    },
  );
});
