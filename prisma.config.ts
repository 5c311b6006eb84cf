// Prisma CLI config. Only `prisma generate` runs here (the native schema engine cannot be
// downloaded); migrations are applied by lib/db/migrate.ts. The URL is a placeholder when unset.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://placeholder@localhost:5432/placeholder" },
});
