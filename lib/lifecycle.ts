// The process's life cycle as the routes see it: whether a graceful shutdown has begun (server.ts
// marks it on SIGTERM; /api/ready then answers 503 so that a load balancer stops sending), the two
// steps of that shutdown (set by lib/boot.ts, called by server.ts), and a bound for work that must
// not hang a probe or a scrape. Imports nothing heavy: server.ts bundles this file.
import { processSlot } from "./process-state";

const shuttingDown = processSlot<boolean>("shuttingDown");

/**
 * Graceful shutdown, in two steps: `drain` while the HTTP server lets its requests in flight finish
 * (the worker takes no more jobs; replies being produced here get up to `ms` to finish), then
 * `shutdown`: running jobs get up to `ms`, then the database closes.
 */
export const shutdownSteps = {
  drain: processSlot<(ms: number) => Promise<void>>("drain"),
  shutdown: processSlot<(ms?: number) => Promise<void>>("shutdown"),
};

export function markShuttingDown() {
  shuttingDown.set(true);
}

export const isShuttingDown = (): boolean => shuttingDown.get() === true;

/** Thrown by `within` when the work did not settle in time. */
export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took more than ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/** `work`, or a TimeoutError after `ms` (the work itself goes on; its late result is dropped). */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  work.catch(() => {}); // a late failure has nobody left to tell
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One step of background work at a time per process (backgroundStep), first come first served. */
const lane = processSlot<Promise<void>>("backgroundLane");

/**
 * Runs `step` (a short stretch of background work: a few database statements) when no other
 * background step runs in this process and, unless `maxWaitMs` passes first, between live requests
 * (whenQuiet). On the embedded database a statement runs on this thread, so background work taken a
 * step at a time in the gaps leaves live requests the event loop; a step never waits for a call to
 * the outside world (a model's answer), which runs outside any step.
 */
export async function backgroundStep<T>(step: () => Promise<T>, maxWaitMs: number): Promise<T> {
  const before = lane.get() ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  lane.set(before.then(() => mine));
  await before;
  try {
    await whenQuiet(maxWaitMs);
    return await step();
  } finally {
    release();
  }
}

/** Requests this process is serving now (lib/http/handler.ts counts them): what background work yields to. */
const serving = processSlot<number>("requestsServing");
/** When the last request served ended (performance.now()). */
const lastServed = processSlot<number>("requestsLastServed");
/** A gap between live requests counts once it has lasted this long (a client's next request comes quickly). */
const QUIET_GAP_MS = 1;

/** Counts a request being served until the function it answers is called. */
export function serveRequest(): () => void {
  serving.set((serving.get() ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    serving.set((serving.get() ?? 1) - 1);
    lastServed.set(performance.now());
  };
}

/**
 * Resolves once this process serves no request and has served none for QUIET_GAP_MS, or after `maxWaitMs`: background work that shares the
 * event loop with live requests (an evaluation's replays, lib/evaluations/job.ts) starts its next
 * step between them, and is never held up longer than `maxWaitMs` by a steady stream of them.
 */
export async function whenQuiet(maxWaitMs: number): Promise<void> {
  // First a turn of the event loop: the embedded database answers in microtasks, so work that only
  // awaits it would never let the HTTP server read a request (and count it).
  await new Promise<void>((resolve) => setImmediate(resolve));
  const until = Date.now() + maxWaitMs;
  const busy = () => (serving.get() ?? 0) > 0 || performance.now() - (lastServed.get() ?? -Infinity) < QUIET_GAP_MS;
  while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
}
