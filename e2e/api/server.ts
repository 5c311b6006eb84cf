// Starts the production server (node server.mjs) on a free port against a given database, for API
// tests. Stdout and stderr go to a log file that tests can read (e.g. to prove no key is logged).
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(import.meta.dirname, "../..");

export interface DbTarget {
  /** Embedded data folder, when not PostgreSQL. */
  dataDir?: string;
  databaseUrl?: string;
}

export function dbEnv(target: DbTarget): Record<string, string> {
  return target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir!, DATABASE_URL: "" };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function admin(target: DbTarget, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(
    path.join(root, "node_modules/.bin/tsx"),
    ["scripts/admin.ts", ...args, "--json"],
    { cwd: root, env: { ...process.env, ...dbEnv(target), LOG_LEVEL: "warn" } },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  logFile: string;
  proc: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServer(
  target: DbTarget,
  extraEnv: Record<string, string> = {},
  port?: number,
): Promise<RunningServer> {
  port ??= await freePort();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "aws-log-"));
  const logFile = path.join(logDir, "server.log");
  const out = createWriteStream(logFile);
  const proc = spawn(process.execPath, ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...dbEnv(target),
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  proc.stdout!.pipe(out);
  proc.stderr!.pipe(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let exited = false;
  proc.once("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited during start; see ${logFile}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    port,
    logFile,
    proc,
    stop: async (signal = "SIGTERM") => {
      if (exited) return;
      const done = new Promise((r) => proc.once("exit", r));
      try {
        process.kill(-proc.pid!, signal); // the process group: next leaves children otherwise
      } catch {
        /* gone */
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      if (!exited) process.kill(-proc.pid!, "SIGKILL");
    },
  };
}
