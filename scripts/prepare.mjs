// Generates the Prisma client (no native engine needed for generate; see docs/decisions.md).
import { execFileSync } from "node:child_process";

execFileSync("npx", ["prisma", "generate"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
