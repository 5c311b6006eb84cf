// Before `next build` and `next dev`: generates the Prisma client (no native engine needed for
// generate; see docs/decisions.md) when the schema changed, and bundles the production server
// (server.ts, which reads its settings through lib/env.ts) into dist/server.mjs for `npm start`
// and the standalone worker into dist/worker.mjs for `npm run worker`, and the admin CLI into
// dist/admin.mjs (the tests call it once per command: a bundle starts in a fraction of tsx's time),
// with the table of route files and the methods they export, and the hot and long routes of the
// route contracts (scripts/route-table.mjs), built in.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { contractFacts, routeTable } from "./route-table.mjs";

const root = path.resolve(import.meta.dirname, "..");
const schema = path.join(root, "prisma/schema.prisma");
const generated = path.join(root, "lib/generated/prisma/client.ts");

// Skipped when up to date, so that parallel builds of one checkout do not rewrite it under each other.
if (!existsSync(generated) || statSync(generated).mtimeMs < statSync(schema).mtimeMs) {
  execFileSync("npx", ["prisma", "generate"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

// SERVER_DIST (default dist) lets parallel work in one checkout keep its own bundle; one level deep.
// The standalone worker (scripts/worker.ts) is bundled beside it into worker.mjs (`npm run worker`),
// so that neither needs tsx at runtime: production installs keep only the dependencies.
const dist = path.join(root, process.env.SERVER_DIST || "dist");
mkdirSync(dist, { recursive: true });
const routes = JSON.stringify(await routeTable(root));
const facts = JSON.stringify(await contractFacts(root));
for (const [entry, name] of [
  ["server.ts", "server.mjs"],
  ["scripts/worker.ts", "worker.mjs"],
  ["scripts/admin.ts", "admin.mjs"],
]) {
  const out = path.join(dist, name);
  const tmp = `${out}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(root, entry)],
    outfile: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    define: { __AWS_ROUTE_TABLE__: routes, __AWHS_CONTRACT_FACTS__: facts },
  });
  renameSync(tmp, out);
}
