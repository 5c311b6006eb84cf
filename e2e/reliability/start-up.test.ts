// Start-up and the embedded database's lock, from outside the production server (dist/server.mjs):
// - a server SIGKILLed as PID 1 of its own pid namespace (as in a container after `docker kill`, an
//   OOM kill or a power cut) starts again on the same folder as PID 1 again: the lock is one the
//   operating system drops with its process, never a pid to trust (docs/decisions.md, 55). Where
//   `unshare` cannot make a pid namespace, each start runs through a shell that writes its own pid
//   into the lock file and then becomes the server (the same process, so the same pid);
// - a second server (and a standalone worker) on a folder a live server holds exits 1 with the
//   message naming the owner, without ever answering a request;
// - a server (a cluster of two) and a worker that cannot reach PostgreSQL exit 1 with the reason,
//   without ever answering a request (before, the server listened and answered every request 500).
// Every wait polls with a generous bound: nothing depends on how fast the machine is.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, serverProcessEnv, startServer, TEST_AUTH_SECRET } from "../api/server";

const root = path.resolve(import.meta.dirname, "../..");
const dist = process.env.SERVER_DIST || "dist";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Bound of a start, of an exit and of a kill taking effect: minutes, on a loaded 2-core machine. */
const BOUND_MS = 150_000;

/** Whether this machine lets the test make a pid namespace (root, or user namespaces allowed). */
const PID_NAMESPACES = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]).status === 0;

interface Started {
  proc: ChildProcess;
  port: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every HTTP status the port answered while it was probed (probe()). */
  statuses: number[];
}

const running: Started[] = [];
const disposals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of running) killGroup(s.proc);
  for (const dispose of disposals) await dispose();
});

function killGroup(proc: ChildProcess) {
  try {
    process.kill(-proc.pid!, "SIGKILL"); // the process group: unshare, the server and its children
  } catch {
    /* gone */
  }
}

function serverEnv(dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...serverProcessEnv(port),
    SEED_DEMO: "false",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ...extra,
  };
}

/** Starts `argv` (a server or a worker) in a process group of its own, its output kept apart. */
function launch(argv: string[], env: NodeJS.ProcessEnv, port: number): Started {
  const proc = spawn(argv[0]!, argv.slice(1), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const started: Started = { proc, port, stdout: () => out, stderr: () => err, exited, statuses: [] };
  running.push(started);
  return started;
}

/**
 * The production server on `dataDir` as PID 1 of a new pid namespace (`unshare --kill-child`: the
 * server dies with unshare), or, without namespaces, through a shell that writes its own pid as a
 * stale lock and then execs the server (which keeps that pid).
 */
function startAsPid1(dataDir: string, port: number): Started {
  const env = serverEnv(dataDir, port);
  if (PID_NAMESPACES) {
    return launch(
      ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, `${dist}/server.mjs`],
      env,
      port,
    );
  }
  const folder = path.join(dataDir, "pglite");
  mkdirSync(folder, { recursive: true });
  const script = `echo $$ > "$1/.lock"; exec "$2" "$3"`;
  return launch(["sh", "-c", script, "sh", folder, process.execPath, `${dist}/server.mjs`], env, port);
}

/** One GET /api/health: its status, or undefined when nothing answered (refused, reset). */
async function health(port: number): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

/** Polls /api/health until it answers 200 (recording every status), failing if the process exits. */
async function healthy(s: Started) {
  let gone = false;
  void s.exited.then(() => (gone = true));
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const status = await health(s.port);
    if (status !== undefined) s.statuses.push(status);
    if (status === 200) return;
    if (gone) throw new Error(`the server exited during start:\n${s.stdout()}\n${s.stderr()}`);
    if (status !== undefined && status >= 500) {
      throw new Error(`the server answered ${status} while starting:\n${s.stdout()}\n${s.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`no 200 from /api/health within ${BOUND_MS} ms:\n${s.stderr()}`);
    await sleep(200);
  }
}

/** Probes the port every 100 ms until the process exits (at most BOUND_MS); returns how it exited. */
async function exitWhileProbed(s: Started) {
  let result: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void s.exited.then((r) => (result = r));
  const deadline = Date.now() + BOUND_MS;
  while (!result && Date.now() < deadline) {
    const status = await health(s.port);
    if (status !== undefined) s.statuses.push(status);
    await sleep(100);
  }
  if (!result) throw new Error(`still running after ${BOUND_MS} ms:\n${s.stdout()}\n${s.stderr()}`);
  return result;
}

/** SIGKILLs the whole group and waits until the port refuses connections (the server is gone). */
async function killed(s: Started) {
  killGroup(s.proc);
  await s.exited;
  const deadline = Date.now() + BOUND_MS;
  while ((await health(s.port)) !== undefined) {
    if (Date.now() > deadline) throw new Error("the killed server still answers");
    await sleep(200);
  }
}

async function embeddedFolder(label: string) {
  const tmp = path.join(os.tmpdir(), `awhs-${label}-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  disposals.push(async () => rmSync(tmp, { recursive: true, force: true }));
  return path.join(tmp, "data");
}

// Nothing here depends on which database the suites run on: the PostgreSQL pass leaves it out.
const suite = describe.skipIf(!!process.env.TEST_DATABASE_URL);

suite("the embedded database's lock", () => {
  it(`a server SIGKILLed as PID 1 of its pid namespace starts again on the same folder as PID 1 (${PID_NAMESPACES ? "unshare --pid" : "no pid namespaces here: a stale lock naming the new process's own pid"})`, async () => {
    const dataDir = await embeddedFolder("pid1");
    const lockFile = path.join(dataDir, "pglite", ".lock");
    const port = await freePort();

    const first = startAsPid1(dataDir, port);
    await healthy(first);
    const firstPid = readFileSync(lockFile, "utf8");
    if (PID_NAMESPACES) expect(firstPid).toBe("1");
    await killed(first);
    expect(readFileSync(lockFile, "utf8")).toBe(firstPid); // nothing cleaned up after a SIGKILL

    const second = startAsPid1(dataDir, port);
    await healthy(second);
    expect(readFileSync(lockFile, "utf8")).toBe(PID_NAMESPACES ? "1" : String(second.proc.pid));
    expect(second.stderr()).not.toMatch(/already open in this process|in use by/);
    expect([...first.statuses, ...second.statuses].filter((s) => s >= 500)).toEqual([]);
    await killed(second);
  });

  it("a second server and a standalone worker on a folder a live server holds exit 1 with the message naming it, answering nothing", async () => {
    const dataDir = await embeddedFolder("lock-held");
    const owner = await startServer({ dataDir }, { SEED_DEMO: "false" });
    disposals.push(() => owner.stop("SIGKILL"));
    const message =
      `The embedded database in ${path.join(dataDir, "pglite")} is in use by process ${owner.proc.pid}. ` +
      "PGlite allows one process per data folder";

    const port = await freePort();
    const second = launch([process.execPath, `${dist}/server.mjs`], serverEnv(dataDir, port), port);
    expect(await exitWhileProbed(second)).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toContain(`error: ${message}`);
    expect(second.statuses).toEqual([]); // it never listened: no 500, no answer at all

    const worker = launch([process.execPath, `${dist}/worker.mjs`], serverEnv(dataDir, port), port);
    expect(await exitWhileProbed(worker)).toEqual({ code: 1, signal: null });
    expect(worker.stderr()).toContain(`error: ${message}`);

    expect(await health(owner.port)).toBe(200); // the owner is untouched
  });
});

suite("a start that fails", () => {
  const unreachable = { DATABASE_URL: "postgres://127.0.0.1:1/unreachable", AUTH_SECRET: TEST_AUTH_SECRET };

  it("a server (a cluster of two processes) that cannot reach its database exits 1 with the reason, answering nothing", async () => {
    const dataDir = await embeddedFolder("no-database");
    const port = await freePort();
    const server = launch(
      [process.execPath, `${dist}/server.mjs`],
      serverEnv(dataDir, port, { ...unreachable, WEB_CONCURRENCY: "2" }),
      port,
    );
    expect(await exitWhileProbed(server)).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toContain("error: connect ECONNREFUSED 127.0.0.1:1");
    expect(server.stderr()).toMatch(/server process \d+ failed to start \(1\); stopping/);
    expect(server.statuses).toEqual([]);
  });

  it("a standalone worker that cannot reach its database exits 1 with the reason", async () => {
    const dataDir = await embeddedFolder("worker-no-database");
    const port = await freePort();
    const worker = launch(
      [process.execPath, `${dist}/worker.mjs`],
      serverEnv(dataDir, port, { ...unreachable, WORKER_PORT: String(port) }),
      port,
    );
    expect(await exitWhileProbed(worker)).toEqual({ code: 1, signal: null });
    expect(worker.stderr()).toContain("error: connect ECONNREFUSED 127.0.0.1:1");
    expect(worker.statuses).toEqual([]);
  });
});
