// A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
// the PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards). Installed as the
// process-wide database so that services under test use it.
import { openDatabase, setDatabase, type Database } from "../lib/db";
import { stopQueue } from "../lib/queue";
import { createFreshPostgresDatabase } from "./postgres";

export { createFreshPostgresDatabase };

export async function openTestDatabase(): Promise<Database & { dispose: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const fresh = await createFreshPostgresDatabase(adminUrl);
    const db = await openDatabase({ url: fresh.url });
    setDatabase(db);
    return Object.assign(db, {
      dispose: async () => {
        await stopQueue(); // its own connections would be cut by the drop below
        await db.close();
        await fresh.drop();
      },
    });
  }
  const db = await openDatabase({ dataDir: "memory://" });
  setDatabase(db);
  return Object.assign(db, {
    dispose: async () => {
      await stopQueue();
      await db.close();
    },
  });
}
