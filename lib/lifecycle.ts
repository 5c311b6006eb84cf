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
