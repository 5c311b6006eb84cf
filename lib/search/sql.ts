// The search's and the timeline's queries: read-only, in one transaction whose statements
// PostgreSQL cancels past SEARCH_TIMEOUT_MS (statement_timeout), answered as 422 search_too_broad.
// PGlite runs in this process, one statement at a time, and has no timer to cancel one: there the
// bound is the indexes and the LIMITs alone (docs/console.md, Search).
import { database } from "../db";
import { ApiError } from "../errors";
import type { Prisma } from "../generated/prisma/client";

export type Sql = Prisma.Sql;
export type Query = <T>(sql: Sql) => Promise<T[]>;

export const SEARCH_TIMEOUT_MS = 3000;

/** PostgreSQL's query_canceled (57014), as the driver adapter passes it on. */
function isStatementTimeout(e: unknown): boolean {
  const seen = new Set<unknown>();
  for (let err = e as { code?: unknown; cause?: unknown; message?: unknown } | undefined; err && !seen.has(err);) {
    seen.add(err);
    if (err.code === "57014" || (typeof err.message === "string" && err.message.includes("statement timeout")))
      return true;
    err = err.cause as typeof err;
  }
  return false;
}

export async function boundedQuery<T>(work: (query: Query) => Promise<T>): Promise<T> {
  const db = await database();
  try {
    return await db.prisma.$transaction(
      async (tx) => {
        if (db.kind === "postgres") {
          await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${SEARCH_TIMEOUT_MS}`);
          await tx.$executeRawUnsafe("SET LOCAL transaction_read_only = on");
        }
        return work(<R>(sql: Sql) => tx.$queryRaw<R[]>(sql));
      },
      { timeout: SEARCH_TIMEOUT_MS * 4, maxWait: SEARCH_TIMEOUT_MS },
    );
  } catch (e) {
    if (isStatementTimeout(e))
      throw new ApiError(
        "search_too_broad",
        `The search took longer than ${SEARCH_TIMEOUT_MS / 1000} s: narrow it (more words, an id, field:value).`,
      );
    throw e;
  }
}
