// How pg-boss reaches the database when it does not open its own pool: an object with
// `executeSql(text, values)` answering `{ rows }` (pg-boss 10's `db` option, also accepted per call
// by `send`). Two of them: the embedded PGlite instance, shared with Prisma, and a Prisma
// transaction, so that a job commits or rolls back with the rows it acts on.
import type { PGlite } from "@electric-sql/pglite";
import type { Prisma } from "../generated/prisma/client";

export interface QueueDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * PGlite: one statement with parameters goes through `query`. pg-boss sends its schema
 * installation, migrations and maintenance as parameterless `BEGIN; ...; COMMIT;` scripts, which
 * only `exec` runs; each runs inside PGlite's own transaction so that a statement failing half way
 * rolls the script back before any other caller gets the single connection (a failed script left
 * in an aborted transaction would poison every later query of the process).
 */
export function pgliteDb(pglite: PGlite): QueueDb {
  return {
    async executeSql(text, values) {
      if (values?.length) return { rows: (await pglite.query<Record<string, unknown>>(text, values)).rows };
      const results = /^\s*BEGIN\b/i.test(text)
        ? await pglite.transaction((tx) => tx.exec(text))
        : await pglite.exec(text);
      return { rows: results.flatMap((r) => r.rows as Record<string, unknown>[]) };
    },
  };
}

/** A Prisma interactive transaction (on either database): pg-boss's statements run inside it. */
export function prismaDb(tx: Prisma.TransactionClient): QueueDb {
  return {
    async executeSql(text, values) {
      const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...(values ?? []));
      return { rows: Array.isArray(rows) ? rows : [] };
    },
  };
}
