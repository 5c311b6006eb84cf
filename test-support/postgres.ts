// A new, empty database on the PostgreSQL server named by an admin URL, for one test run.
import pg from "pg";
import { randomBase62 } from "../lib/ids";

export async function createFreshPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `awhs_test_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // A commit does not wait for its WAL flush (about 1.3 ms of a 2.2 ms commit on CI's disk): only a
  // crash of the PostgreSQL server itself could lose the last commits, and no test database lives
  // through one (pg-restart's cluster is its own, with the defaults). Every connection to it gets this.
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
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
