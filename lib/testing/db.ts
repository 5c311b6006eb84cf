// A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
// the PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards). Installed as the
// process-wide database so that services under test use it.
import pg from "pg";
import { openDatabase, setDatabase, type Database } from "../db";
import { randomBase62 } from "../ids";

export async function createFreshPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `aws_test_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function openTestDatabase(): Promise<Database & { dispose: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const fresh = await createFreshPostgresDatabase(adminUrl);
    const db = await openDatabase({ url: fresh.url });
    setDatabase(db);
    return Object.assign(db, {
      dispose: async () => {
        await db.close();
        await fresh.drop();
      },
    });
  }
  const db = await openDatabase({ dataDir: "memory://" });
  setDatabase(db);
  return Object.assign(db, { dispose: () => db.close() });
}
