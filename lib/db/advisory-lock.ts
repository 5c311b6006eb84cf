// Locks that hold across server processes on PostgreSQL: a session-level advisory lock on a
// connection of its own (held for as long as the lock, which may be minutes: an upload's PATCH),
// so that pool connections stay free.
import pg from "pg";

export interface HeldLock {
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Another session held the lock until the caller's signal aborted. */
export class LockNotAcquiredError extends Error {
  constructor(name: string) {
    super(`lock ${name} not acquired`);
  }
}

/** Takes the advisory lock named `name`, retrying until `signal` aborts (then throws). */
export async function advisoryLock(connectionString: string, name: string, signal: AbortSignal): Promise<HeldLock> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [name]);
      if (rows[0]?.ok) break;
      if (signal.aborted) throw new LockNotAcquiredError(name);
      await sleep(100);
    }
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return {
    release: async () => {
      // Ending the session releases its advisory locks even if the unlock itself failed.
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [name]).catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

/**
 * Takes the advisory lock named `name` if no other session holds it (one try); null when one does.
 * For work that one process of many should do at a time and the others may skip (the retention sweep).
 */
export async function tryAdvisoryLock(connectionString: string, name: string): Promise<HeldLock | null> {
  try {
    return await advisoryLock(connectionString, name, AbortSignal.abort());
  } catch (err) {
    if (err instanceof LockNotAcquiredError) return null;
    throw err;
  }
}
