// The process's life cycle as the routes see it: whether a graceful shutdown has begun (server.ts
// marks it on SIGTERM; /api/ready then answers 503 so that a load balancer stops sending), and a
// bound for work that must not hang a probe or a scrape. No imports: server.ts bundles this file.

const g = globalThis as unknown as { __awsShuttingDown?: boolean };

export function markShuttingDown() {
  g.__awsShuttingDown = true;
}

export const isShuttingDown = (): boolean => g.__awsShuttingDown === true;

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
