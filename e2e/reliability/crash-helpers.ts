// Shared by the crash, restart and fault suites (crash-*.test.ts, pg-restart.test.ts,
// upload-faults.test.ts): a seeded random source that prints its seed, a server (and, on PostgreSQL,
// a standalone worker) that can be SIGKILLed and started again on the same data, a load runner with
// bounded concurrency whose HTTP client is replaced at each kill, and the audits that compare what
// clients were told with what the database holds. Audits return violations as strings, so that a
// failure lists every broken record at once.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { Agent, request } from "undici";
import {
  bootstrapOrg,
  dbEnv,
  freePort,
  LOCAL_UPSTREAMS_ENV,
  startServer,
  type DbTarget,
  type RunningServer,
} from "../api/server";

const execFileP = promisify(execFile);

const root = path.resolve(import.meta.dirname, "../..");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Seeded randomness: where a kill or an abort lands is drawn from a seed that is printed, so that a
// failure can be replayed with RELIABILITY_SEED=<seed>.

export interface Rng {
  seed: number;
  /** [0, 1) */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function rng(label: string): Rng {
  const fromEnv = process.env.RELIABILITY_SEED;
  const seed = fromEnv ? Number(fromEnv) >>> 0 : randomInt(2 ** 31);
  console.log(`[${label}] seed ${seed} (replay with RELIABILITY_SEED=${seed})`);
  let a = seed;
  // mulberry32: small, fast, and the same sequence everywhere for a seed.
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** `count` distinct positions in [lo, hi), sorted, at least `gap` apart (as far as the range allows). */
export function killPoints(r: Rng, count: number, lo: number, hi: number, gap = 1): number[] {
  const points: number[] = [];
  for (let tries = 0; points.length < count && tries < 1000; tries++) {
    const p = r.int(lo, hi - 1);
    if (points.every((q) => Math.abs(q - p) >= gap)) points.push(p);
  }
  return points.sort((x, y) => x - y);
}

// ---------------------------------------------------------------------------------------------
// Processes: the production server (e2e/api/server.ts) and, on PostgreSQL, `npm run worker`.

export interface WorkerProcess {
  proc: ChildProcess;
  logFile: string;
  kill(): void;
}

/** Starts the bundled worker (dist/worker.mjs: what `npm run worker` runs) and waits until it has started. */
export async function startWorkerProcess(target: DbTarget, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), "awhs-worker-log-")), "worker.log");
  const out = createWriteStream(logFile);
  const proc = spawn(process.execPath, [path.join(root, process.env.SERVER_DIST || "dist", "worker.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      ...LOCAL_UPSTREAMS_ENV,
      ...dbEnv(target),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  proc.stdout!.pipe(out);
  proc.stderr!.pipe(out);
  let exited = false;
  proc.once("exit", () => (exited = true));
  const kill = () => {
    if (exited) return;
    try {
      process.kill(-proc.pid!, "SIGKILL"); // the whole group: the worker and any process it started
    } catch {
      /* gone */
    }
  };
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      if (existsSync(logFile) && readFileSync(logFile, "utf8").includes('"worker started"')) break;
      if (exited) throw new Error(`worker exited during start; see ${logFile}`);
      if (Date.now() > deadline) throw new Error(`worker did not start; see ${logFile}`);
      await sleep(200);
    }
  } catch (err) {
    kill();
    throw err;
  }
  return { proc, logFile, kill };
}

export type Org = { organization_id: string; project_id: string; user_id: string; user_token: string };

export interface Stack {
  target: DbTarget;
  org: Org;
  server: RunningServer;
  /** The standalone worker (PostgreSQL: the server then runs none). */
  worker?: WorkerProcess;
  readonly baseUrl: string;
  call(
    method: string,
    p: string,
    opts?: { auth?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  mintKey(): Promise<string>;
  createAgent(spec: unknown): Promise<string>;
  /** SIGKILLs the server and the worker at once; resolves once the server process is gone. */
  kill(): Promise<void>;
  /** Starts them again on the same data and port. */
  start(): Promise<void>;
  /** Stops everything (before reading an embedded database, which allows one process). */
  stop(): Promise<void>;
}

/**
 * A server on `target` with one organization bootstrapped by the admin CLI's services. With `separateWorker`
 * (PostgreSQL only) the server runs no worker and `npm run worker` runs beside it: both are killed
 * and started together.
 */
export async function stackOn(
  target: DbTarget,
  label: string,
  env: Record<string, string>,
  opts: { separateWorker?: boolean } = {},
): Promise<Stack> {
  const org: Org = await bootstrapOrg(target, label, `${label}@example.com`);
  const separate = !!opts.separateWorker && !!target.databaseUrl;
  const serverEnv = { SEED_DEMO: "false", ...env, ...(separate ? { RUN_WORKER: "false" } : {}) };
  const server = await startServer(target, serverEnv);
  let worker: WorkerProcess | undefined;
  try {
    worker = separate ? await startWorkerProcess(target, env) : undefined;
  } catch (err) {
    await server.stop("SIGKILL");
    throw err;
  }
  const stack: Stack = {
    target,
    org,
    server,
    worker,
    get baseUrl() {
      return stack.server.baseUrl;
    },
    async call(method, p, o = {}) {
      const res = await fetch(`${stack.baseUrl}${p}`, {
        method,
        headers: {
          ...(o.auth ? { authorization: `Bearer ${o.auth}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
          ...o.headers,
        },
        body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      return { status: res.status, body };
    },
    async mintKey() {
      const res = await stack.call("POST", `/api/v1/organizations/${org.organization_id}/access-keys`, {
        auth: org.user_token,
        body: { name: label, permissions: ["agents:invoke"] },
      });
      if (res.status !== 201) throw new Error(`mint key: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.key as string;
    },
    async createAgent(spec) {
      const res = await stack.call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
        auth: org.user_token,
        body: spec,
      });
      if (res.status !== 201) throw new Error(`create agent: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.agent_id as string;
    },
    async kill() {
      stack.worker?.kill();
      await stack.server.stop("SIGKILL"); // the signal goes before its first await
    },
    async start() {
      await stack.server.stop("SIGKILL"); // waits for the killed process to be gone
      stack.server = await startServer(target, serverEnv, stack.server.port);
      if (separate) stack.worker = await startWorkerProcess(target, env);
    },
    async stop() {
      stack.worker?.kill();
      await stack.server.stop("SIGKILL");
    },
  };
  return stack;
}

// ---------------------------------------------------------------------------------------------
// A PostgreSQL cluster of the test's own (initdb on a free port), so that it can be stopped and
// started without touching the machine's shared server that other tests use.

export interface PrivateCluster {
  url: string;
  /** `immediate` is a crash: no checkpoint, every connection cut; the next start recovers. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function privatePostgres(label: string): Promise<PrivateCluster> {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  const bin = (name: string) => path.join("/usr/lib/postgresql", versions[0]!, "bin", name);
  const dir = mkdtempSync(path.join(os.tmpdir(), `awhs-pg-${label}-`));
  const data = path.join(dir, "data");
  // PostgreSQL refuses to run as root: as root, run its tools as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await execFileP("chown", ["-R", "postgres", dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileP("runuser", ["-u", "postgres", "--", cmd, ...args]) : execFileP(cmd, args);
  await run(bin("initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () =>
      void (await run(bin("pg_ctl"), ["-D", data, "-o", opts, "-l", path.join(dir, "pg.log"), "-w", "start"])),
    stop: async (mode = "fast") => void (await run(bin("pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"])),
    dispose: async () => {
      await cluster.stop("immediate").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

// ---------------------------------------------------------------------------------------------
// Load: `total` requests, `concurrency` at a time, over an HTTP client that a kill replaces.

export interface Answer {
  /** undefined: no answer (the connection broke with the request in flight). */
  status?: number;
  body?: any;
  /** Retry-After, in seconds, when the answer had one. */
  retryAfter?: number;
  error?: string;
}

const refused = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === "ECONNREFUSED" || err?.cause?.code === "ECONNREFUSED";
};

/**
 * An HTTP client with at most `connections` sockets. Around a kill (`during`) it is replaced: the
 * requests in flight end without an answer, later ones open fresh connections (never a pooled socket
 * of a dead server, which would fail a request that never arrived). A refused connection means the
 * request never arrived: it is sent again once the server listens.
 */
export class LoadClient {
  private agent: Agent;
  constructor(private readonly connections: number) {
    this.agent = new Agent({ connections, pipelining: 1 });
  }

  private held: Promise<void> | undefined;

  /**
   * Runs `kill` with new requests held back: the requests in flight are cut with the server, and the
   * others go, once `kill` has resolved (the process is gone), on fresh connections.
   */
  async during(kill: () => Promise<void>) {
    let release = () => {};
    this.held = new Promise<void>((r) => (release = r));
    try {
      await kill();
    } finally {
      const old = this.agent;
      this.agent = new Agent({ connections: this.connections, pipelining: 1 });
      void old.destroy().catch(() => {});
      this.held = undefined;
      release();
    }
  }

  async send(
    url: string,
    opts: { method?: string; headers?: Record<string, string>; body?: unknown; deadlineMs?: number },
  ): Promise<Answer> {
    const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
    for (;;) {
      await this.held;
      try {
        const res = await request(url, {
          method: (opts.method ?? "POST") as "POST",
          headers: { ...(opts.body !== undefined ? { "content-type": "application/json" } : {}), ...opts.headers },
          body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
          dispatcher: this.agent,
          // A request that gets no answer in this long is a hang: the suites count it as one.
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
        const text = await res.body.text();
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        const retryAfter = res.headers["retry-after"] !== undefined ? Number(res.headers["retry-after"]) : undefined;
        return { status: res.statusCode, body, retryAfter };
      } catch (e) {
        if (refused(e) && Date.now() < deadline) {
          await sleep(100);
          continue;
        }
        const err = e as { code?: string; message?: string };
        return { error: err.code ?? err.message ?? String(e) };
      }
    }
  }

  async close() {
    await this.agent.close().catch(() => {});
  }
}

/**
 * As a well-behaved client: a refusal that says when to come back (Retry-After) pauses its caller.
 * The request itself is not sent again: whether it was carried out is for the audits to say.
 */
export async function backOff(answer: Answer) {
  if (answer.retryAfter !== undefined) await sleep(Math.min(answer.retryAfter, 5) * 1000);
}

/**
 * Runs task(0..total-1) with at most `concurrency` at once, in index order; `before(i)` runs as task i
 * is about to start (kill points hook in there, without waiting).
 */
export async function runLoad<T>(opts: {
  total: number;
  concurrency: number;
  task: (i: number) => Promise<T>;
  before?: (i: number) => void;
}): Promise<T[]> {
  const results = new Array<T>(opts.total);
  let nextIndex = 0;
  const lane = async () => {
    for (;;) {
      const i = nextIndex++;
      if (i >= opts.total) return;
      opts.before?.(i);
      results[i] = await opts.task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, opts.total) }, lane));
  return results;
}

/** Polls `check` until it returns true or `ms` pass; returns whether it did (never throws on time). */
export async function settle(check: () => Promise<boolean>, ms: number, everyMs = 1_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** Runs `fn` for each item, `concurrency` at a time. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>) {
  return runLoad({ total: items.length, concurrency, task: (i) => fn(items[i]!) });
}

// ---------------------------------------------------------------------------------------------
// The database, read directly for the audits. The embedded database allows one process: read it
// only once the server has stopped.

export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export async function withDb<R>(target: DbTarget, fn: (q: Query) => Promise<R>): Promise<R> {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      return await fn(async (sql, params) => (await c.query(sql, params as unknown[])).rows);
    } finally {
      await c.end();
    }
  }
  const db = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    return await fn(async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows);
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The mixed load of the crash and restart suites: asynchronous conversational triggers spread over
// sessions opened beforehand (so that every trigger, answered or not, can be found through the
// public API), with a workflow run trigger every so often.

export const ECHO_DELAY_MS = 400;
export const TERMINAL_RUN = ["completed", "failed", "cancelled", "needs_review", "paused"];

/** A conversational agent whose replies take a while (so that a kill finds replies in flight). */
export const slowEcho = (delayMs = ECHO_DELAY_MS) => ({
  name: "slow echo",
  kind: "conversational",
  runtime: { type: "echo", delay_ms: delayMs },
});

/** A workflow whose items take a while; `label` identifies the trigger in the stored run. */
export const pacedWorkflow = (paceMs: number) => ({
  name: "paced",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true }, label: { type: "string", required: true } },
    items: { from: "rows" },
    steps: [
      { id: "double", type: "transform", expression: "$merge([item, {'double': item.n * 2}])" },
      { id: "pace", type: "wait", ms: paceMs },
    ],
    output: { filename: "items.jsonl", format: "jsonl" },
  },
});

export interface Sent {
  i: number;
  kind: "message" | "run";
  /** The message content or the run's label: how the stored record is found. */
  tag: string;
  session?: string;
  answer: Answer;
}

export const accepted = (s: Sent) => s.answer.status !== undefined && s.answer.status >= 200 && s.answer.status < 300;

export interface MixedLoad {
  key: string;
  conversational: string;
  workflow: string;
  sessions: string[];
  items: number;
}

/** Opens `count` sessions (an asynchronous first message each) and returns their ids. */
export async function openSessions(stack: Stack, key: string, agent: string, count: number): Promise<string[]> {
  const opened = await mapLimit(
    Array.from({ length: count }, (_, s) => s),
    8,
    async (s) => {
      const res = await stack.call("POST", `/api/agents/webhook/${agent}`, {
        auth: key,
        body: { message: `open-${s}` },
        headers: { prefer: "respond-async" },
      });
      if (res.status !== 202) throw new Error(`open session: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.session_id as string;
    },
  );
  return opened;
}

/** Trigger `i` of a mixed load: a run every `runEvery`, a message on session i % sessions otherwise. */
export function mixedTrigger(load: MixedLoad, runEvery: number, client: LoadClient, baseUrl: () => string) {
  return async (i: number): Promise<Sent> => {
    const headers = { authorization: `Bearer ${load.key}` };
    if (i % runEvery === 0) {
      const tag = `run-${i}`;
      const answer = await client.send(`${baseUrl()}/api/agents/webhook/${load.workflow}`, {
        headers,
        body: { label: tag, rows: Array.from({ length: load.items }, (_, n) => ({ n })) },
      });
      return { i, kind: "run", tag, answer };
    }
    const tag = `t-${i}`;
    const session = load.sessions[i % load.sessions.length]!;
    const answer = await client.send(`${baseUrl()}/api/agents/webhook/${load.conversational}`, {
      headers: { ...headers, prefer: "respond-async" },
      body: { message: tag, session_id: session },
    });
    return { i, kind: "message", tag, session, answer };
  };
}

export interface ApiMessage {
  message_id: string;
  role: string;
  status: string;
  content: string;
}

/** Every message of every session, through the public API (oldest first). */
export async function sessionMessages(stack: Stack, load: MixedLoad): Promise<Map<string, ApiMessage[]>> {
  const lists = await mapLimit(load.sessions, 16, async (s) => {
    const all: ApiMessage[] = [];
    for (let offset = 0; ; offset += 200) {
      const res = await stack.call(
        "GET",
        `/api/agents/${load.conversational}/sessions/${s}/messages?limit=200&offset=${offset}`,
        {
          auth: load.key,
        },
      );
      if (res.status !== 200) throw new Error(`list messages: ${res.status}`);
      all.push(...res.body.messages);
      if (res.body.messages.length < 200) return all;
    }
  });
  return new Map(load.sessions.map((s, i) => [s, lists[i]!]));
}

export interface ApiRun {
  run_id: string;
  status: string;
  item_counts: Record<string, number>;
  summary: Record<string, number>;
  output_files?: { url: string }[];
}

export async function listRuns(stack: Stack, load: MixedLoad): Promise<ApiRun[]> {
  const res = await stack.call("GET", `/api/agents/${load.workflow}/runs?limit=100`, { auth: load.key });
  if (res.status !== 200) throw new Error(`list runs: ${res.status}`);
  return res.body as ApiRun[];
}

/**
 * Waits (bounded) until no message is processing and every run has ended, retrying runs that
 * failed (a run whose engine ran out of attempts; `retry` continues it from where it stopped).
 * Returns how many retries were made; the audits then say what is still wrong, if anything.
 */
export async function settleLoad(stack: Stack, load: MixedLoad, ms: number): Promise<{ retries: number }> {
  let retries = 0;
  const retried = new Map<string, number>();
  let lastReport = Date.now();
  await settle(async () => {
    const messages = await sessionMessages(stack, load);
    const processing = [...messages.values()].flat().filter((m) => m.status === "processing").length;
    const runs = await listRuns(stack, load);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      const states: Record<string, number> = {};
      for (const r of runs) states[r.status] = (states[r.status] ?? 0) + 1;
      console.log(`settling: ${processing} replies processing; runs ${JSON.stringify(states)}`);
    }
    if (processing) return false;
    for (const r of runs.filter((r) => r.status === "failed" && (retried.get(r.run_id) ?? 0) < 3)) {
      const res = await stack.call("POST", `/api/agents/${load.workflow}/runs/${r.run_id}/retry`, { auth: load.key });
      console.log(`run ${r.run_id} failed; retry: ${res.status}`);
      retried.set(r.run_id, (retried.get(r.run_id) ?? 0) + 1);
      retries++;
      return false;
    }
    return runs.every((r) => TERMINAL_RUN.includes(r.status));
  }, ms);
  return { retries };
}

/** Each run of the workflow agent with its output file's lines, through the public API. */
export async function runOutputs(
  stack: Stack,
  load: MixedLoad,
): Promise<Map<string, { run: ApiRun; lines: string[] }>> {
  const runs = await listRuns(stack, load);
  const out = await mapLimit(runs, 8, async (r) => {
    const full = (await stack.call("GET", `/api/agents/${load.workflow}/runs/${r.run_id}`, { auth: load.key }))
      .body as ApiRun;
    const url = full.output_files?.[0]?.url;
    const lines = url ? (await (await fetch(url)).text()).split("\n").filter(Boolean) : [];
    return { run: full, lines };
  });
  return new Map(out.map((o) => [o.run.run_id, o]));
}

export interface DbSnapshot {
  messages: {
    id: string;
    session_id: string;
    role: string;
    status: string;
    content: string;
    reply_to_id: string | null;
  }[];
  sessions: { id: string; message_count: number }[];
  runs: {
    id: string;
    status: string;
    label: string;
    items_completed: number;
    items_total: number;
    successful: number;
  }[];
  items: { run_id: string; n: number; distinct_index: number; completed: number }[];
  /** What the crashes cost (printed, not asserted: it depends on where they landed). */
  recovered: { replies: number; runJobsRetried: number };
}

async function count(q: Query, sql: string, params: unknown[]): Promise<number> {
  return Number((await q<{ n: number | string }>(sql, params))[0]?.n ?? 0);
}

export async function snapshot(target: DbTarget, load: MixedLoad): Promise<DbSnapshot> {
  return withDb(target, async (q) => ({
    messages: await q<DbSnapshot["messages"][number]>(
      "SELECT id, session_id, role, status, content, reply_to_id FROM messages WHERE agent_id = $1",
      [load.conversational],
    ),
    sessions: await q<DbSnapshot["sessions"][number]>("SELECT id, message_count FROM sessions WHERE agent_id = $1", [
      load.conversational,
    ]),
    runs: await q<DbSnapshot["runs"][number]>(
      `SELECT id, status, inputs->>'label' AS label, items_completed, items_total, successful
       FROM runs WHERE agent_id = $1`,
      [load.workflow],
    ),
    items: (
      await q<{ run_id: string; n: number | string; distinct_index: number | string; completed: number | string }>(
        `SELECT i.run_id, count(*) AS n, count(DISTINCT i.index) AS distinct_index,
                count(*) FILTER (WHERE i.status = 'completed') AS completed
         FROM run_items i JOIN runs r ON r.id = i.run_id WHERE r.agent_id = $1 GROUP BY i.run_id`,
        [load.workflow],
      )
    ).map((r) => ({ ...r, n: Number(r.n), distinct_index: Number(r.distinct_index), completed: Number(r.completed) })),
    recovered: {
      // Replies taken over from a producer that died; run jobs started again after their worker died.
      replies: await count(q, "SELECT count(*) AS n FROM messages WHERE agent_id = $1 AND recoveries > 0", [
        load.conversational,
      ]),
      // Only a statistic (the queue's tables are the queue's business): -1 when it cannot be read.
      runJobsRetried: await count(
        q,
        `SELECT count(*) AS n FROM pgboss.job
         WHERE name = 'run' AND retry_count > 0 AND data->>'runId' IN (SELECT id FROM runs WHERE agent_id = $1)`,
        [load.workflow],
      ).catch(() => -1),
    },
  }));
}

/**
 * Conversations: every accepted trigger has exactly one user message (in its session) and its
 * assistant reply, ended completed or error; a trigger without a 2xx left nothing or the same
 * complete record; every user message has exactly one reply; session counters equal their messages;
 * nothing is still processing.
 */
export function auditConversations(
  sent: Sent[],
  db: DbSnapshot,
  api: Map<string, ApiMessage[]>,
  openers: number,
): string[] {
  const bad: string[] = [];
  const users = new Map<string, DbSnapshot["messages"]>();
  const replyOf = new Map<string, DbSnapshot["messages"][number]>();
  const byId = new Map(db.messages.map((m) => [m.id, m]));
  for (const m of db.messages) {
    if (m.role === "user") users.set(m.content, [...(users.get(m.content) ?? []), m]);
    else if (m.reply_to_id) replyOf.set(m.reply_to_id, m);
    else bad.push(`assistant ${m.id} answers no message`);
    if (m.status === "processing") bad.push(`${m.role} message ${m.id} still processing`);
  }
  const checkRecord = (tag: string, user: DbSnapshot["messages"][number], session?: string) => {
    const reply = replyOf.get(user.id);
    if (session && user.session_id !== session)
      bad.push(`${tag}: stored in session ${user.session_id}, sent to ${session}`);
    if (!reply) return bad.push(`${tag}: user message without a reply`);
    if (!["completed", "error"].includes(reply.status)) bad.push(`${tag}: reply ${reply.id} is ${reply.status}`);
    if (reply.status === "completed" && reply.content !== `Echo: ${tag}`)
      bad.push(`${tag}: reply content ${JSON.stringify(reply.content)}`);
    if (reply.session_id !== user.session_id) bad.push(`${tag}: reply in another session`);
  };
  for (const s of sent.filter((x) => x.kind === "message")) {
    const stored = users.get(s.tag) ?? [];
    if (stored.length > 1) bad.push(`${s.tag}: stored ${stored.length} times`);
    if (accepted(s)) {
      if (stored.length === 0) {
        bad.push(`${s.tag}: answered ${s.answer.status} but not stored`);
        continue;
      }
      const reply = byId.get(s.answer.body?.message_id);
      if (!reply || reply.reply_to_id !== stored[0]!.id) bad.push(`${s.tag}: the answered message_id is not its reply`);
    }
    if (stored[0]) checkRecord(s.tag, stored[0], s.session);
  }
  const sentTags = new Set([...sent.map((s) => s.tag), ...Array.from({ length: openers }, (_, k) => `open-${k}`)]);
  for (const [content, list] of users) {
    if (!sentTags.has(content)) bad.push(`a user message nobody sent: ${JSON.stringify(content)}`);
    if (content.startsWith("open-")) list.forEach((u) => checkRecord(content, u));
  }
  const perSession = new Map<string, number>();
  for (const m of db.messages) perSession.set(m.session_id, (perSession.get(m.session_id) ?? 0) + 1);
  for (const s of db.sessions) {
    if (s.message_count !== (perSession.get(s.id) ?? 0))
      bad.push(`session ${s.id}: message_count ${s.message_count}, holds ${perSession.get(s.id) ?? 0}`);
  }
  // The public API shows the same: per session, as many replies as messages, none processing.
  for (const [session, list] of api) {
    const roles = list.map((m) => m.role);
    const usersHere = roles.filter((r) => r === "user").length;
    if (usersHere !== roles.length - usersHere)
      bad.push(`API, session ${session}: ${usersHere} user messages, ${roles.length - usersHere} replies`);
    if (list.some((m) => m.status === "processing")) bad.push(`API, session ${session}: a message still processing`);
    if (list.length !== (perSession.get(session) ?? 0))
      bad.push(`API, session ${session}: lists ${list.length} messages`);
  }
  return bad;
}

/**
 * Runs: every accepted run trigger has its run; a trigger without a 2xx made at most one; every run
 * ended completed with exact counts, exactly one item row per item, and an output with every item
 * exactly once.
 */
export function auditRuns(
  sent: Sent[],
  db: DbSnapshot,
  api: Map<string, { run: ApiRun; lines: string[] }>,
  items: number,
): string[] {
  const bad: string[] = [];
  const byLabel = new Map<string, DbSnapshot["runs"]>();
  for (const r of db.runs) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  const itemRows = new Map(db.items.map((i) => [i.run_id, i]));
  const runSent = sent.filter((s) => s.kind === "run");
  for (const s of runSent) {
    const runs = byLabel.get(s.tag) ?? [];
    if (runs.length > 1) bad.push(`${s.tag}: ${runs.length} runs`);
    if (accepted(s) && runs[0]?.id !== s.answer.body?.run_id)
      bad.push(`${s.tag}: answered run ${s.answer.body?.run_id}, stored ${runs[0]?.id}`);
  }
  const labels = new Set(runSent.map((s) => s.tag));
  const exact = { completed: items, failed: 0, needs_review: 0, total: items };
  for (const r of db.runs) {
    if (!labels.has(r.label)) bad.push(`run ${r.id}: a label nobody sent (${r.label})`);
    if (r.status !== "completed") bad.push(`run ${r.id} (${r.label}): ${r.status}`);
    if (r.items_completed !== items || r.items_total !== items || r.successful !== items)
      bad.push(`run ${r.id}: counts ${r.items_completed}/${r.items_total}, successful ${r.successful}`);
    const rows = itemRows.get(r.id);
    if (!rows || rows.n !== items || rows.distinct_index !== items || rows.completed !== items)
      bad.push(`run ${r.id}: item rows ${JSON.stringify(rows)}`);
    const seen = api.get(r.id);
    if (!seen) {
      bad.push(`run ${r.id}: not listed by the API`);
      continue;
    }
    if (Object.entries(exact).some(([k, v]) => seen.run.item_counts[k] !== v))
      bad.push(`run ${r.id}: item_counts ${JSON.stringify(seen.run.item_counts)}`);
    if (seen.run.summary.total_processed !== items || seen.run.summary.successful !== items)
      bad.push(`run ${r.id}: summary ${JSON.stringify(seen.run.summary)}`);
    const lines = seen.lines.map((l) => JSON.parse(l) as { index: number; result?: { n: number; double: number } });
    const indexes = lines.map((l) => l.index).sort((a, b) => a - b);
    if (JSON.stringify(indexes) !== JSON.stringify(Array.from({ length: items }, (_, k) => k)))
      bad.push(`run ${r.id}: output has ${lines.length} lines, items ${JSON.stringify(indexes.slice(0, 20))}...`);
    for (const l of lines)
      if (l.result?.n !== l.index || l.result?.double !== l.index * 2)
        bad.push(`run ${r.id}: item ${l.index} result ${JSON.stringify(l.result)}`);
  }
  return bad;
}

/** Counts of answers by status (or by error), for the log. */
export function tally(sent: Sent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of sent) {
    const k = `${s.kind} ${s.answer.status ?? `no answer (${s.answer.error})`}`;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}
