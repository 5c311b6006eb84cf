// A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
// the PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards). Installed as the
// process-wide database so that services under test use it.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, setDatabase, type Database } from "../lib/db";
import { loadMigrations } from "../lib/db/migrate";
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
  const db = await openDatabase({ dataDir: "memory://", loadDataDir: await migratedTemplate() });
  setDatabase(db);
  return Object.assign(db, {
    dispose: async () => {
      await stopQueue();
      await db.close();
    },
  });
}

/**
 * A migrated, empty in-memory database as a tarball, made once per set of migrations and kept in the
 * temp folder: loading it takes a second where creating and migrating a database takes five. The
 * migrations still run on open (they find everything applied), so a stale copy cannot pass unseen.
 */
export async function migratedTemplate(): Promise<Blob> {
  const pglite = readFileSync(path.join(process.cwd(), "node_modules/@electric-sql/pglite/package.json"), "utf8");
  const hash = createHash("sha256").update(JSON.parse(pglite).version);
  for (const m of loadMigrations()) hash.update(m.name).update(m.checksum);
  const file = path.join(os.tmpdir(), `awhs-pglite-template-${hash.digest("hex").slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    const db = await openDatabase({ dataDir: "memory://" });
    const tar = await db.pglite!.dumpDataDir("none");
    await db.close();
    // Written aside and renamed: two test files making it at once never read half of it.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await tar.arrayBuffer()));
    renameSync(part, file);
  }
  return new Blob([readFileSync(file)]);
}
