// Applies the committed Prisma migrations (prisma/migrations/*/migration.sql) in order, without the
// Prisma CLI's native engine. Each migration runs in a transaction together with its row in
// `_prisma_migrations` (checksum = sha256 of the file), so the table stays compatible with
// `prisma migrate deploy` on machines that can run the CLI. Idempotent; concurrent starters on
// PostgreSQL serialise on an advisory lock.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** The little a migration needs from a driver: run a multi-statement script, and a query. */
export interface SqlExecutor {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationsDir(): string {
  // Resolved from the working directory: the server, CLI and tests all run from the project root.
  return path.join(process.cwd(), "prisma", "migrations");
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(/*turbopackIgnore: true*/ dir)) throw new Error(`migrations folder not found: ${dir}`);
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

const LOCK_ID = 72_707_369; // arbitrary, constant advisory lock id for migrations

/**
 * Tries of a migration that gave up waiting for a lock (its own `SET LOCAL lock_timeout`) or was
 * chosen as a deadlock's victim, and the pause between them.
 */
const LOCK_TRIES = 12;
const LOCK_PAUSE_MS = 1_000;

const isLockFailure = (e: unknown) =>
  ["55P03", "40P01"].includes((e as { code?: string }).code ?? "") ||
  /lock timeout|deadlock detected/i.test((e as Error).message ?? "");

/**
 * One migration and its row, in one transaction. A migration that sets a lock timeout (so that it
 * never holds every query of a busy table in the queue behind it) and runs into it, or that a
 * deadlock with the running application aborted, is rolled back and tried again a little later,
 * LOCK_TRIES times.
 */
async function applyOne(db: SqlExecutor, m: Migration) {
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  for (let attempt = 1; ; attempt++) {
    const id = randomUUID();
    try {
      await db.exec(
        `BEGIN;\n${m.sql}\n;INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) ` +
          `VALUES (${quote(id)}, ${quote(m.checksum)}, now(), ${quote(m.name)}, 1);\nCOMMIT;`,
      );
      return;
    } catch (e) {
      await db.exec("ROLLBACK").catch(() => {});
      if (isLockFailure(e) && attempt < LOCK_TRIES) {
        await new Promise((r) => setTimeout(r, LOCK_PAUSE_MS));
        continue;
      }
      throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
    }
  }
}

export async function applyMigrations(db: SqlExecutor, migrations = loadMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await db.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
  try {
    await db.exec(CREATE_TABLE);
    const rows = await db.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior) {
        if (prior !== m.checksum) {
          throw new Error(`migration ${m.name} was changed after it was applied (checksum differs)`);
        }
        continue;
      }
      await applyOne(db, m);
      applied.push(m.name);
    }
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]);
  }
  return applied;
}
