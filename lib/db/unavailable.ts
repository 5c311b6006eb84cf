// Errors that mean the database cannot be reached right now (stopped, restarting, connection cut),
// as opposed to an error of the query itself. The HTTP layer answers them 503 service_unavailable
// with Retry-After (retry after a pause) instead of 500 internal_error with a stack in the log.

/** SQLSTATE class 08 (connection exception); 57P01-57P03: admin shutdown, crash shutdown, cannot connect now. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
/** Prisma: can't reach the server, timed out reaching it, the server closed the connection. */
const PRISMA = new Set(["P1001", "P1002", "P1017"]);
/**
 * The driver adapter's kinds for the same (a raw query's P2010 carries them: a socket reset is
 * `ConnectionClosed`, "Server has closed the connection.").
 */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
const ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/** node-postgres's own words for a connection that broke or never came. */
const PG_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

interface MaybeDbError {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
}

export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const x = e as MaybeDbError;
    if (typeof x.code === "string" && (PRISMA.has(x.code) || ERRNO.has(x.code) || SQLSTATE.test(x.code))) return true;
    const adapter = x.meta?.driverAdapterError?.cause;
    if (typeof adapter?.kind === "string" && ADAPTER_KINDS.has(adapter.kind)) return true;
    if (typeof adapter?.code === "string" && SQLSTATE.test(adapter.code)) return true;
    if (typeof x.message === "string" && PG_MESSAGE.test(x.message)) return true;
    e = x.cause;
  }
  return false;
}
