// Evaluator processes: every user-supplied expression (and the regular expressions inside it) is
// evaluated in a child process, never on the server's event loop (docs/workflows.md, "Bounds").
//
// Why processes and not worker threads: a worker's `resourceLimits` are best effort, and one large
// allocation in a worker (a JSONata range, a padded string) aborts the whole process
// (nodejs/node#47224). A child process has its own heap limit (--max-old-space-size) and dies
// alone; its watchdog thread (./child.ts) kills it when one evaluation overruns the deadline.
//
// A request is a batch of items (a page of a run), answered in one message. When a process dies
// with a request in flight, the request is evaluated again in a new process in careful mode, which
// reports every step and result as it happens: if it dies again, the item it was on is the culprit
// and fails with `expression_timeout` (killed by the watchdog) or `expression_too_large` (out of
// memory); the items before it keep their results, the items after it are asked for again.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import path from "node:path";
import { log } from "../log";
import { childMain, watchdog, type ChildMessage, type ChildOptions, type ChildRequest } from "./child";
import { expressionProgram, type BoundCode, type EvalRequest, type ItemResult, type ProgramLimits } from "./program";

export interface Evaluator {
  /** Results for a non-empty prefix of the request's items, in order: ask again for the rest. */
  evaluate(request: EvalRequest): Promise<ItemResult[]>;
}

export interface EvaluatorPool extends Evaluator {
  /** Ends the processes; requests waiting or in flight fail. */
  close(): void;
  /** Process ids of the live evaluator processes (tests kill them). */
  pids(): number[];
}

export interface PoolOptions {
  /** At most this many processes (each evaluates one request at a time). */
  processes: number;
  timeoutMs: number;
  memoryMb: number;
  maxResultChars: number;
  /** A process with nothing to do for this long exits (a new one starts when needed). */
  idleMs?: number;
}

/** JSONata's evaluation depth bound (non-tail recursion); ample for any expression that is not a runaway. */
const MAX_DEPTH = 1_000;
/** A request yields the process after this much work, so that other runs' requests get their turn. */
const BUDGET_MS = 50;
const BUDGET_CHARS = 16 * 1024 * 1024;
/** Runs' inputs a process keeps parsed (see EvalRequest.inputs). */
const INPUTS_KEPT = 8;

interface Job {
  id: number;
  request: EvalRequest;
  careful: boolean;
  /** Careful mode: results reported so far, and the [item, step] being evaluated. */
  reported: ItemResult[];
  at?: [number, number];
  resolve(results: ItemResult[]): void;
  reject(e: Error): void;
}

interface Proc {
  child: ChildProcess;
  job?: Job;
  idle?: NodeJS.Timeout;
  /** Ended on purpose (idle, close): its exit is not a death. */
  retired: boolean;
  stderr: string;
  /** The inputs keys the process keeps, least recently used first: the program's own list, mirrored. */
  inputs: string[];
}

/** jsonata as installed beside the server: the child `require`s it by this absolute path. */
function jsonataPath(): string {
  for (const base of [path.join(process.cwd(), "package.json"), process.argv[1]]) {
    try {
      if (base) return createRequire(base).resolve("jsonata");
    } catch {
      /* try the next */
    }
  }
  throw new Error("the jsonata package cannot be found from the working directory or the entry script");
}

/**
 * The evaluator process's source: the text of functions of this code base (so that it travels
 * inside every bundle: Next's server build, the esbuild worker bundle, tsx and Vitest alike).
 * esbuild's keepNames (tsx) wraps named functions in a `__name` helper: a no-op one is provided.
 */
function childSource(options: ChildOptions): string {
  return `var __name = (f) => f;\n(${childMain.toString()})(require, ${expressionProgram.toString()}, ${JSON.stringify(options)});`;
}

/** The program's limits for these settings (the benchmark's in-process baseline uses the same). */
export const programLimits = (opts: Pick<PoolOptions, "timeoutMs" | "maxResultChars">): ProgramLimits => ({
  timeoutMs: opts.timeoutMs,
  maxDepth: MAX_DEPTH,
  maxResultChars: opts.maxResultChars,
  budgetMs: BUDGET_MS,
  budgetChars: BUDGET_CHARS,
  inputsKept: INPUTS_KEPT,
});

export function createEvaluatorPool(opts: PoolOptions): EvaluatorPool {
  const limits = programLimits(opts);
  // The watchdog's margin over JSONata's own deadline, so that a cooperative timeout (a clean item
  // error, no process lost) wins whenever JSONata gets to check it.
  const hardMs = opts.timeoutMs + Math.max(250, opts.timeoutMs / 2);
  const source = childSource({
    jsonataPath: jsonataPath(),
    limits,
    hardMs,
    watchdogSource: `var __name = (f) => f;\n(${watchdog.toString()})(require("node:worker_threads").workerData);`,
  });
  const causes: Record<BoundCode, string> = {
    expression_timeout: `the expression did not finish within ${opts.timeoutMs} ms`,
    expression_too_large: `the expression needed more than ${opts.memoryMb} MB of memory`,
  };
  const procs = new Set<Proc>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function start(): Proc {
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${opts.memoryMb}`,
        "--disallow-code-generation-from-strings",
        "--no-warnings",
        "-e",
        source,
      ],
      // Nothing of the server's environment (settings, secrets) is in reach of the evaluator.
      { stdio: ["ignore", "ignore", "pipe", "ipc"], serialization: "advanced", env: { NODE_ENV: "production" } },
    );
    const p: Proc = { child, retired: false, stderr: "", inputs: [] };
    procs.add(p);
    // Neither the process nor its pipes keep the server alive (SIGTERM, tests); a request in flight
    // holds the channel (see assign).
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket | null)?.unref();
    child.stderr?.on("data", (d: Buffer) => {
      p.stderr = (p.stderr + d.toString("utf8")).slice(-2_000);
    });
    child.on("message", (m: ChildMessage) => received(p, m));
    child.on("exit", (code, signal) => ended(p, code, signal));
    // Could not start, or its channel closed under a send: as an unexplained exit.
    child.on("error", () => {
      child.kill("SIGKILL");
      ended(p, null, null);
    });
    return p;
  }

  /** The process's request, now settled by the caller (never twice: `error` and `exit` may both come). */
  function take(p: Proc): Job | undefined {
    const job = p.job;
    p.job = undefined;
    return job;
  }

  function dispatch() {
    while (queue.length && !closed) {
      let p = [...procs].find((x) => !x.job && !x.retired);
      if (!p) {
        if (procs.size >= opts.processes) return;
        p = start();
      }
      assign(p, queue.shift()!);
    }
  }

  function assign(p: Proc, job: Job) {
    clearTimeout(p.idle);
    p.job = job;
    p.child.channel?.ref();
    // The inputs' text goes only to a process that does not keep them (the same steps as the program's).
    const { key, json } = job.request.inputs;
    const kept = p.inputs.includes(key);
    p.inputs = [...p.inputs.filter((k) => k !== key), key].slice(-INPUTS_KEPT);
    const request = { ...job.request, inputs: kept ? { key } : { key, json } };
    const message: ChildRequest = { id: job.id, careful: job.careful, request };
    p.child.send(message);
  }

  function release(p: Proc) {
    p.child.channel?.unref();
    p.idle = setTimeout(() => retire(p), opts.idleMs ?? 30_000);
    p.idle.unref();
  }

  function retire(p: Proc) {
    p.retired = true;
    procs.delete(p);
    p.child.kill("SIGKILL");
  }

  function received(p: Proc, m: ChildMessage) {
    const job = p.job;
    if (!job || m.id !== job.id) return;
    if ("at" in m) job.at = m.at;
    else if ("result" in m) job.reported.push(m.result);
    else {
      take(p);
      release(p);
      if ("failed" in m) job.reject(new Error(`the expression evaluator failed: ${m.failed}`));
      else job.resolve([...job.reported, ...m.results]);
      dispatch();
    }
  }

  function ended(p: Proc, code: number | null, signal: NodeJS.Signals | null) {
    clearTimeout(p.idle);
    procs.delete(p);
    const job = take(p);
    if (p.retired || !job) return dispatch();
    const cause: BoundCode | undefined =
      signal === "SIGKILL"
        ? "expression_timeout"
        : signal === "SIGABRT" || code === 134
          ? "expression_too_large"
          : undefined;
    log.warn({ pid: p.child.pid, code, signal, cause, careful: job.careful }, "expression evaluator process ended");
    if (!job.careful) {
      // Again, in a new process, step by step: the item it dies on (if it does again) is the culprit.
      queue.unshift({ ...job, careful: true, reported: [], at: undefined });
    } else if (!cause) {
      log.error({ pid: p.child.pid, code, signal, stderr: p.stderr }, "expression evaluator crashed");
      job.reject(new Error(`the expression evaluator crashed (exit ${code ?? signal})`));
    } else {
      const culprit = job.reported.length;
      const item = job.request.items[culprit];
      if (!item) job.resolve(job.reported);
      else {
        const blame = job.at?.[0] === culprit ? job.at[1] : item.from;
        const message = causes[cause];
        job.resolve([...job.reported, { k: "error", step: item.from, blame, json: item.json, code: cause, message }]);
      }
    }
    dispatch();
  }

  return {
    evaluate(request) {
      if (closed) return Promise.reject(new Error("the expression evaluator is closed"));
      if (!request.items.length) return Promise.resolve([]);
      return new Promise<ItemResult[]>((resolve, reject) => {
        queue.push({ id: nextId++, request, careful: false, reported: [], resolve, reject });
        dispatch();
      });
    },
    close() {
      closed = true;
      const error = new Error("the expression evaluator is closed");
      for (const job of queue.splice(0)) job.reject(error);
      for (const p of [...procs]) {
        take(p)?.reject(error);
        retire(p);
      }
    },
    pids: () => [...procs].flatMap((p) => (p.child.pid ? [p.child.pid] : [])),
  };
}
