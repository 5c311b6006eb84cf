// The servers a benchmark starts besides the production one (bare baseline, fake upstream, empty
// Next app): each in a process of its own, apart from the load generator, in its own process
// group so that stopping it also stops any children. Output goes to a log file.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../e2e/api/server";

export const root = path.resolve(import.meta.dirname, "..");

export interface BenchProcess {
  name: string;
  pid: number;
  baseUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Runs `node <args>` from the project root with PORT (and HOST) set, and waits until `probePath`
 * answers any HTTP status. `tsx: true` loads TypeScript through tsx in the same process.
 */
export async function startProcess(opts: {
  name: string;
  args: string[];
  env?: Record<string, string>;
  probePath: string;
  tsx?: boolean;
  startTimeoutMs?: number;
}): Promise<BenchProcess> {
  const port = await freePort();
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), `awhs-bench-${opts.name}-`)), "out.log");
  const out = createWriteStream(logFile);
  const proc = spawn(process.execPath, [...(opts.tsx ? ["--import", "tsx"] : []), ...opts.args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", ...opts.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  proc.stdout.pipe(out);
  proc.stderr.pipe(out);
  let exited = false;
  const done = new Promise<void>((resolve) =>
    proc.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited) return;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid!, signal);
      } catch {
        /* gone */
      }
    };
    kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise((r) => (timer = setTimeout(r, 5_000)))]);
    clearTimeout(timer);
    if (!exited) kill("SIGKILL");
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`${opts.name} exited during start; see ${logFile}`);
    try {
      await (await fetch(`${baseUrl}${opts.probePath}`)).arrayBuffer();
      break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${opts.name} did not start; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name: opts.name, pid: proc.pid!, baseUrl, logFile, stop };
}
