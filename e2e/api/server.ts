// Starts the production server (node dist/server.mjs) on a free port against a given database, for API
// tests. Stdout and stderr go to a log file that tests can read (e.g. to prove no key is logged).
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createFreshPostgresDatabase } from "../../test-support/postgres";
import { storageEnv } from "./s3-server";

const root = path.resolve(import.meta.dirname, "../..");

export interface DbTarget {
  /** Data folder: the embedded database (without databaseUrl) and file storage. */
  dataDir: string;
  /** PostgreSQL database, when not embedded. */
  databaseUrl?: string;
}

/** The console's session key: required on PostgreSQL (every instance must share it). */
export const TEST_AUTH_SECRET = "test-auth-secret-for-the-suites-only-0123456789";

export function dbEnv(target: DbTarget): Record<string, string> {
  return {
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? "",
    ...(target.databaseUrl ? { AUTH_SECRET: TEST_AUTH_SECRET } : {}),
  };
}

/**
 * A database of its own for a test or benchmark: a new PostgreSQL database when TEST_DATABASE_URL
 * is set (the run on PostgreSQL), else an empty embedded one; `dispose` drops or deletes it.
 */
export async function freshTarget(
  label: string,
): Promise<{ target: DbTarget; tmp: string; dispose: () => Promise<void> }> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `awhs-${label}-`));
  const dataDir = path.join(tmp, "data");
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  if (!process.env.TEST_DATABASE_URL) return { target: { dataDir }, tmp, dispose: async () => removeTmp() };
  const fresh = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL);
  return {
    target: { dataDir, databaseUrl: fresh.url },
    tmp,
    dispose: async () => {
      await fresh.drop();
      removeTmp();
    },
  };
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

/**
 * The admin CLI as the build bundled it (`node dist/admin.mjs`, scripts/prepare.mjs): the same code as
 * `npm run admin`, started in half the time of tsx, which compiles scripts/admin.ts at every call.
 */
export const ADMIN_CLI = [path.join(root, process.env.SERVER_DIST || "dist", "admin.mjs")];

export async function admin(target: DbTarget, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(process.execPath, [...ADMIN_CLI, ...args, "--json"], {
    cwd: root,
    env: { ...process.env, ...dbEnv(target), LOG_LEVEL: "warn" },
  });
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

/**
 * Opens `target`'s database in this process for `fn` (the services the admin CLI calls, without
 * starting a process for them), then closes it: on the embedded database the server, started after,
 * needs the folder to itself. A new embedded folder starts from a migrated copy (test-support/db.ts).
 */
export function withTargetDatabase<T>(target: DbTarget, fn: () => Promise<T>): Promise<T> {
  // One at a time: the services use the process-wide database (the projects' global setups share a process).
  const turn = databaseTurn.then(() => openedFor(target, fn));
  databaseTurn = turn.catch(() => {});
  return turn;
}
let databaseTurn: Promise<unknown> = Promise.resolve();

async function openedFor<T>(target: DbTarget, fn: () => Promise<T>): Promise<T> {
  const { closeDatabase, openDatabase, setDatabase } = await import("../../lib/db");
  const { migratedTemplate } = await import("../../test-support/db");
  const dataDir = path.join(target.dataDir, "pglite");
  setDatabase(
    await openDatabase(
      target.databaseUrl
        ? { url: target.databaseUrl }
        : { dataDir, loadDataDir: existsSync(dataDir) ? undefined : await migratedTemplate() },
    ),
  );
  try {
    return await fn();
  } finally {
    await closeDatabase();
  }
}

/** An organization with its default project and an admin holding a user token (`admin bootstrap`). */
export async function bootstrapOrg(target: DbTarget, org: string, email: string, password = "correct horse battery") {
  const { bootstrap } = await import("../../lib/orgs/service");
  return withTargetDatabase(target, () => bootstrap({ org, email, password }));
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  logFile: string;
  proc: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The suites' fake upstreams (customer endpoints, model servers) listen on 127.0.0.1, a loopback
 * address the upstream guard refuses by default (docs/deploy.md): servers and workers started for
 * tests allow private upstreams explicitly. A test of the guard itself overrides it
 * (`ALLOW_PRIVATE_UPSTREAMS: "false"`).
 */
export const LOCAL_UPSTREAMS_ENV = { ALLOW_PRIVATE_UPSTREAMS: "true" } as const;

/** The environment of a test's production server process on `port`, before its database's. */
export function serverProcessEnv(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    PORT: String(port),
    HOST: "127.0.0.1",
    // One process unless a test asks for more (on PostgreSQL the default is one per core).
    WEB_CONCURRENCY: "1",
    // Suites and benchmarks send thousands of requests a minute with one key: far above the
    // production default (600 a minute) but still counted, so that every request goes through the
    // limiter as in production. rate-limits.test.ts sets its own.
    RATE_LIMIT_PER_MINUTE: "1000000",
    // The suites make evaluations in every organization they share (the member matrix makes one per
    // principal it tries): the bound (3 by default) is tested by lib/evaluations/evaluations.test.ts.
    EVALUATIONS_PER_ORG: "1000",
    ...LOCAL_UPSTREAMS_ENV,
  };
}

export async function startServer(
  target: DbTarget,
  extraEnv: Record<string, string> = {},
  port?: number,
  /** Options for node itself, e.g. `--cpu-prof` (bench/profile.ts). */
  nodeArgs: string[] = [],
  /** Another checkout's build to run (a benchmark's "before": bench/api.bench.ts, BENCH_BEFORE_DIR). */
  cwd = root,
): Promise<RunningServer> {
  port ??= await freePort();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "awhs-log-"));
  const logFile = path.join(logDir, "server.log");
  const out = createWriteStream(logFile);
  const proc = spawn(process.execPath, [...nodeArgs, `${process.env.SERVER_DIST || "dist"}/server.mjs`], {
    cwd,
    env: {
      ...serverProcessEnv(port),
      ...dbEnv(target),
      // The S3 pass of the storage suites: a prefix of the test bucket per data folder.
      ...storageEnv(target),
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
    if (Date.now() > deadline) {
      process.kill(-proc.pid!, "SIGKILL"); // nobody else holds it: do not leave it running
      throw new Error(`server did not become healthy; see ${logFile}`);
    }
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

export interface OwnServer {
  server: RunningServer;
  target: DbTarget;
  tmp: string;
  org: { organization_id: string; project_id: string; user_id: string; user_token: string };
  /** A JSON call to this server; `auth` is a raw Access Key or user token. */
  call(
    method: string,
    path: string,
    opts?: { auth?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  mintKey(permissions?: string[]): Promise<string>;
  createAgent(spec: unknown): Promise<string>;
  /** Stops the server (SIGKILL to simulate a crash) and starts it again on the same data and port. */
  restart(signal?: NodeJS.Signals, env?: Record<string, string>): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A server of its own (for tests that kill it, or need other settings than the shared one) on a
 * fresh database with one organization bootstrapped by the admin CLI.
 */
export async function ownServer(
  label: string,
  env: Record<string, string> = {},
  opts: { nodeArgs?: string[]; cwd?: string } = {},
): Promise<OwnServer> {
  const { target, tmp, dispose } = await freshTarget(label);
  const org = await bootstrapOrg(target, label, `${label}@example.com`);
  const baseEnv = { SEED_DEMO: "false", ...env };
  const own: OwnServer = {
    server: await startServer(target, baseEnv, undefined, opts.nodeArgs, opts.cwd),
    target,
    tmp,
    org,
    async call(method, p, opts = {}) {
      const res = await fetch(`${own.server.baseUrl}${p}`, {
        method,
        headers: {
          ...(opts.auth ? { authorization: `Bearer ${opts.auth}` } : {}),
          ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
          ...opts.headers,
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    async mintKey(permissions = ["agents:invoke"]) {
      const res = await own.call("POST", `/api/v1/organizations/${org.organization_id}/access-keys`, {
        auth: org.user_token,
        body: { name: label, permissions },
      });
      if (res.status !== 201) throw new Error(`mint key: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.key as string;
    },
    async createAgent(spec) {
      const res = await own.call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
        auth: org.user_token,
        body: spec,
      });
      if (res.status !== 201) throw new Error(`create agent: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.agent_id as string;
    },
    async restart(signal = "SIGKILL", extraEnv = {}) {
      await own.server.stop(signal);
      own.server = await startServer(target, { ...baseEnv, ...extraEnv }, own.server.port, opts.nodeArgs);
    },
    async dispose() {
      await own.server.stop("SIGKILL");
      await dispose();
    },
  };
  return own;
}
