// The standalone worker (npm run worker): on PostgreSQL it serves web servers that run none
// (RUN_WORKER=false); on the embedded database it refuses while the server owns the data folder.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dbEnv, ownServer, type OwnServer } from "./server";

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
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  proc.stdout!.on("data", (d) => (output += d));
  proc.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  return { proc, output: () => output, exited };
}

describe("standalone worker", () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "produces the replies of a server that runs no worker, on the same PostgreSQL database",
    { timeout: 300_000 },
    async () => {
      own = await ownServer("worker", { RUN_WORKER: "false" });
      const key = await own.mintKey();
      const agent = await own.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });
      // Without a worker the reply cannot come: the bounded wait runs out.
      const before = await own.call("POST", `/api/agents/webhook/${agent}`, {
        auth: key,
        body: { message: "nobody home" },
        headers: { prefer: "wait=1" },
      });
      expect(before.status).toBe(502);
      expect(before.body.error.code).toBe("upstream_timeout");

      const w = startWorker(dbEnv(own.target));
      worker = w.proc;
      const deadline = Date.now() + 60_000;
      while (!w.output().includes("worker started") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect(w.output()).toContain("worker started");

      const res = await own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: "hello" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "completed", response: "Echo: hello" });
      // The message left waiting before the worker started is answered too.
      const { session_id, message_id } = before.body.error.details;
      let earlier = await own.call("GET", `/api/agents/${agent}/sessions/${session_id}/messages/${message_id}`, {
        auth: key,
      });
      for (let i = 0; i < 50 && earlier.body.status === "processing"; i++) {
        await new Promise((r) => setTimeout(r, 200));
        earlier = await own.call("GET", `/api/agents/${agent}/sessions/${session_id}/messages/${message_id}`, {
          auth: key,
        });
      }
      expect(earlier.body.status).toBe("completed");
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
