// Writes a new Prisma migration (prisma/migrations/<timestamp>_<name>/migration.sql) from the
// difference between the committed migrations and prisma/schema.prisma. It uses the schema engine
// compiled to WebAssembly against an in-memory PGlite, because the Prisma CLI's native engine
// cannot be downloaded here. Usage: npm run db:migration -- <name>
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = path.join(root, "prisma/migrations");
const schemaPath = path.join(root, "prisma/schema.prisma");

const require = createRequire(import.meta.url);
const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm")), "schema_engine_bg.wasm");
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { "./schema_engine_bg.js": bg });
(bg as unknown as { __wbg_set_wasm(x: unknown): void }).__wbg_set_wasm(instance.exports);
(instance.exports as { __wbindgen_start(): void }).__wbindgen_start();

// The "migrations" side of the diff is replayed by the engine on a shadow database: PGlite.
const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(new PGlite()));
const schema = readFileSync(schemaPath, "utf8");
const engine = await bg.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);

mkdirSync(migrationsDir, { recursive: true });
const existing = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const from = existing.length
  ? {
      tag: "migrations" as const,
      baseDir: migrationsDir,
      lockfile: {
        path: "migration_lock.toml",
        content: readFileSync(path.join(migrationsDir, "migration_lock.toml"), "utf8"),
      },
      shadowDbInitScript: "",
      migrationDirectories: existing.map((dir) => ({
        path: dir,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok" as const, value: readFileSync(path.join(migrationsDir, dir, "migration.sql"), "utf8") },
        },
      })),
    }
  : { tag: "empty" as const };

const result = await engine.diff({
  from,
  to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
  script: true,
  exitCode: null,
  filters: { externalTables: [], externalEnums: [] },
} as unknown as bg.DiffParams);
const sql = result.stdout ?? "";

if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.log("schema and migrations agree: no migration written");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir);
writeFileSync(path.join(dir, "migration.sql"), sql);
writeFileSync(path.join(migrationsDir, "migration_lock.toml"), 'provider = "postgresql"\n');
console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
