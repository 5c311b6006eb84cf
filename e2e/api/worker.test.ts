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
import { dbEnv, LOCAL_UPSTREAMS_ENV, ownServer, type OwnServer } from "./server";

const root = path.resolve(import.meta.dirname, "../..");
let own: OwnServer | undefined;
let worker: ChildProcess | undefined;
afterAll(async () => {
  // tsx runs the script in a child process: end the whole group, not only tsx.
  if (worker?.pid && worker.exitCode === null) process.kill(-worker.pid, "SIGKILL");
  await own?.dispose();
});

function startWorker(env: Record<string, string>) {
  const proc = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/worker.ts"], {
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
