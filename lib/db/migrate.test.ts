import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import { applyMigrations, loadMigrations } from "./migrate";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.dispose());

describe("migrations", () => {
  it("records every committed migration with its sha256 checksum, as prisma migrate deploy does", async () => {
    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    const files = loadMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((m) => [m.name, m.checksum]));
    expect(rows.every((r) => r.finished_at)).toBe(true);
  });

  it("is idempotent", async () => {
    expect(await applyMigrations(db.sql)).toEqual([]);
  });

  it("refuses a migration edited after it was applied", async () => {
    const [first, ...rest] = loadMigrations();
    await expect(applyMigrations(db.sql, [{ ...first!, checksum: "0".repeat(64) }, ...rest])).rejects.toThrow(
      /changed after it was applied/,
    );
  });

  it("rolls back a failing migration completely", async () => {
    const bad = {
      name: "29990101000000_bad",
      sql: "CREATE TABLE t_ok (id int); SELECT * FROM no_such_table;",
      checksum: "x",
    };
    await expect(applyMigrations(db.sql, [...loadMigrations(), bad])).rejects.toThrow(/29990101000000_bad failed/);
    const tables = await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 't_ok'`);
    expect(tables).toHaveLength(0);
    const recorded = await db.sql.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29990101000000_bad'`,
    );
    expect(recorded).toHaveLength(0);
  });
});
