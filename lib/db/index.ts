// The database: PGlite in DATA_DIR (embedded default) or PostgreSQL (DATABASE_URL), one Prisma
// schema and one migration history for both. One client per process, kept on globalThis so that
// Next's separate bundles and dev reloads share it.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "../env";
import { log } from "../log";
import { PrismaClient } from "../generated/prisma/client";
import { lockDataDir } from "./lock";
import { applyMigrations, type SqlExecutor } from "./migrate";
import { processSlot } from "../process-state";

/** A write refused by a unique index (Prisma's P2002). */
export const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === "P2002";

export interface Database {
  prisma: PrismaClient;
  /** Raw driver access: migrations, pg-boss, health checks. */
  sql: SqlExecutor;
  kind: "pglite" | "postgres";
  pglite?: PGlite;
  pool?: pg.Pool;
  connectionString?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; "memory://" for a throwaway in-memory database (tests). */
  dataDir?: string;
  /** A new PGlite database's starting contents (`dumpDataDir`): tests start from a migrated copy. */
  loadDataDir?: Blob;
  migrate?: boolean;
}

export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const url = opts.url;
  let db: Database;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: env().DB_POOL_MAX });
    // An idle connection that the server ends (restart, failover) emits here; without a listener
    // the process would crash. The pool replaces the connection on next use.
    pool.on("error", (err) => log.warn({ err: { message: err.message } }, "database connection lost"));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    db = {
      kind: "postgres",
      prisma,
      pool,
      connectionString: url,
      sql: {
        // One connection for both so that advisory locks and transactions hold.
        exec: async (s) => {
          await pool.query(s);
        },
        query: async (s, p) => (await pool.query(s, p as unknown[])).rows,
      },
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
    // Migrations need a single session for the advisory lock and the BEGIN/COMMIT script.
    if (opts.migrate !== false) {
      const client = await pool.connect();
      try {
        await applyMigrations({
          exec: async (s) => void (await client.query(s)),
          query: async (s, p) => (await client.query(s, p as unknown[])).rows,
        });
      } finally {
        client.release();
      }
    }
    return db;
  }

  const dataDir = opts.dataDir ?? path.join(env().DATA_DIR, "pglite");
  const inMemory = dataDir.startsWith("memory://");
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    const options = opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : undefined;
    pglite = inMemory ? new PGlite(options) : new PGlite(dataDir, options);
    await pglite.waitReady;
  } catch (e) {
    release();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  db = {
    kind: "pglite",
    prisma,
    pglite,
    sql: {
      exec: async (s) => void (await pglite.exec(s)),
      query: async <T>(s: string, p?: unknown[]) => (await pglite.query<T>(s, p)).rows,
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
      release();
    },
  };
  if (opts.migrate !== false) await applyMigrations(db.sql);
  return db;
}

const current = processSlot<Promise<Database>>("db");

/** The process-wide database, opened (and migrated) on first use from the environment. */
export function database(): Promise<Database> {
  let db = current.get();
  if (!db) {
    db = openDatabase({ url: env().DATABASE_URL }).catch((e) => {
      current.set(undefined);
      throw e;
    });
    current.set(db);
  }
  return db;
}

export async function prisma(): Promise<PrismaClient> {
  return (await database()).prisma;
}

/** Installs an already-open database as the process-wide one (tests, CLI). */
export function setDatabase(db: Database) {
  current.set(Promise.resolve(db));
}

export async function closeDatabase() {
  const open = current.get();
  current.set(undefined);
  if (open) await (await open).close();
}
