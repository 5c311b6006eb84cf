// Before `next build` and `next dev`: generates the Prisma client (no native engine needed for
// generate; see docs/decisions.md), and bundles the production server (server.ts, which reads its
// settings through lib/env.ts) into dist/server.mjs for `npm start`.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

execFileSync("npx", ["prisma", "generate"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});

await build({
  entryPoints: [path.join(root, "server.ts")],
  outfile: path.join(root, "dist/server.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
