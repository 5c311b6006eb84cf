// The evaluator process's own code (./pool.ts starts `node -e` with the text of these functions,
// so, like ./program.ts, they refer to nothing outside themselves).
import type { EvalRequest, expressionProgram, ProgramLimits, Report } from "./program";

export interface ChildOptions {
  jsonataPath: string;
  limits: ProgramLimits;
  /** An evaluation that runs longer than this kills the process (the watchdog thread). */
  hardMs: number;
  /** Source of the watchdog thread (`watchdog` below, as text). */
  watchdogSource: string;
}

/** A request from the pool; careful mode reports each step and result as it happens. */
export interface ChildRequest {
  id: number;
  careful: boolean;
  request: EvalRequest;
}

export type ChildMessage =
  | { id: number; at: [number, number] }
  | { id: number; result: import("./program").ItemResult }
  | { id: number; done: true; results: import("./program").ItemResult[] }
  | { id: number; done: true; failed: string };

/**
 * Runs requests one at a time. A watchdog thread shares a counter of evaluations with this thread:
 * JSONata checks its own deadline between the nodes it evaluates, but a regular expression that
 * backtracks never returns to it, and only killing the process stops that. Being in the process
 * itself, the watchdog also ends one whose server died meanwhile (this thread would only notice the
 * closed IPC channel once the evaluation ended).
 */
export function childMain(load: NodeJS.Require, program: typeof expressionProgram, options: ChildOptions) {
  const { Worker } = load("node:worker_threads") as typeof import("node:worker_threads");
  const watch = new Int32Array(new SharedArrayBuffer(8));
  new Worker(options.watchdogSource, {
    eval: true,
    workerData: { watch, hardMs: options.hardMs, tickMs: Math.max(10, Math.min(100, options.hardMs / 10)) },
  }).unref();
  const evaluator = program(load(options.jsonataPath), options.limits, watch);
  const send = (m: ChildMessage) => process.send!(m);
  process.on("message", (m: ChildRequest) => {
    const report: Report | undefined = m.careful ? (r) => send({ id: m.id, ...r }) : undefined;
    evaluator.run(m.request, report).then(
      (results) => send({ id: m.id, done: true, results }),
      (e: Error) => send({ id: m.id, done: true, failed: String(e?.message ?? e) }),
    );
  });
  process.on("disconnect", () => process.exit(0));
}

/** The watchdog thread: kills its process when one evaluation has run longer than `hardMs`. */
export function watchdog(data: { watch: Int32Array; hardMs: number; tickMs: number }) {
  let last = -1;
  let since = Date.now();
  setInterval(() => {
    const seq = Atomics.load(data.watch, 0);
    if (Atomics.load(data.watch, 1) === 0 || seq !== last) {
      last = seq;
      since = Date.now();
    } else if (Date.now() - since > data.hardMs) {
      process.kill(process.pid, "SIGKILL");
    }
  }, data.tickMs);
}
