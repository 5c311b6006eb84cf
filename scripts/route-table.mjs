// The route table the production server uses to answer a method a route does not serve (405 with
// `Allow`, lib/server/node-server.ts): every app/**/route.ts and the HTTP methods it exports, read
// by esbuild's parser (every export form: `export const GET`, `export { x as GET }`,
// `export const { GET, POST } = handlers`). Called by scripts/prepare.mjs at build time. Also the
// index of the route contracts (app/api/contracts.ts) and what the server needs of them.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/** Route files under `root`/app, relative to `root`, with forward slashes. */
export function routeFiles(root) {
  return readdirSync(path.join(root, "app"), { recursive: true })
    .map((f) => `app/${String(f).split(path.sep).join("/")}`)
    .filter((f) => f.endsWith("/route.ts"))
    .sort();
}

/** `[{ file, methods }]`: the server turns `file` into a URL pattern (lib/http/routes.ts). */
export async function routeTable(root) {
  const files = routeFiles(root);
  const result = await build({
    absWorkingDir: root,
    entryPoints: files,
    bundle: false,
    write: false,
    metafile: true,
    format: "esm",
    outdir: "route-table",
    logLevel: "warning",
  });
  const exportsOf = new Map(
    Object.values(result.metafile.outputs)
      .filter((o) => o.entryPoint)
      .map((o) => [o.entryPoint, o.exports]),
  );
  return files.map((file) => {
    const exported = exportsOf.get(file);
    if (!exported) throw new Error(`route table: no exports read for ${file}`);
    return { file, methods: exported.filter((e) => METHODS.has(e)).sort() };
  });
}

/** Contract files (app/.../contract.ts beside a route.ts), relative to `root`. */
export function contractFiles(root) {
  return readdirSync(path.join(root, "app"), { recursive: true })
    .map((f) => `app/${String(f).split(path.sep).join("/")}`)
    .filter((f) => f.endsWith("/contract.ts"))
    .sort();
}

export const CONTRACT_INDEX = "app/api/contracts.ts";

/** The text of app/api/contracts.ts: every contract file's exports, in the order of their paths. */
export function contractIndexSource(root) {
  const files = contractFiles(root);
  const base = path.posix.dirname(CONTRACT_INDEX);
  const name = (i) => `c${i}`;
  return [
    "// Every route contract (app/**/contract.ts), made by `node scripts/route-table.mjs --write`: do not",
    "// edit. scripts/route-table.test.ts fails when it is out of date.",
    'import type { RouteContract } from "@/lib/http/contract";',
    ...files.map((f, i) => {
      const rel = path.posix.relative(base, f).replace(/\.ts$/, "");
      return `import * as ${name(i)} from "${rel.startsWith(".") ? rel : `./${rel}`}";`;
    }),
    "",
    "export const CONTRACTS: readonly RouteContract[] = [",
    ...files.map((_, i) => `  ...Object.values(${name(i)}),`),
    "];",
    "",
    "/** Every contract by `METHOD /api/path/[param]`: what a typed caller names (components/console/use-api.ts). */",
    "export interface ContractMap {",
    ...files.flatMap((f, i) =>
      contractMethods(root, f).map((m) => `  ${JSON.stringify(`${m} ${contractPath(f)}`)}: typeof ${name(i)}.${m};`),
    ),
    "}",
    "",
  ].join("\n");
}

export const SCHEMA_INDEX = "lib/openapi/schema-modules.ts";

/** The schema modules of the domain (lib/<domain>/schemas.ts), relative to `root`, and the OpenAPI parts. */
export function schemaModuleFiles(root) {
  const domains = readdirSync(path.join(root, "lib"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `lib/${d.name}/schemas.ts`)
    .filter((f) => existsSync(path.join(root, f)));
  return ["lib/openapi/parts.ts", ...domains.sort()];
}

/**
 * The text of lib/openapi/schema-modules.ts: every schema module, whose exported schemas are
 * the document's components under their export names (lib/openapi/answers.ts).
 */
export function schemaIndexSource(root) {
  const files = schemaModuleFiles(root);
  const base = path.posix.dirname(SCHEMA_INDEX);
  return [
    "// Every schema module (lib/<domain>/schemas.ts, and the OpenAPI parts), made by",
    "// `node scripts/route-table.mjs --write`: do not edit. scripts/route-table.test.ts fails when it is",
    "// out of date. An exported schema is a component of the OpenAPI document under its export's name.",
    ...files.map((f, i) => {
      const rel = path.posix.relative(base, f).replace(/\.ts$/, "");
      return `import * as s${i} from "${rel.startsWith(".") ? rel : `./${rel}`}";`;
    }),
    "",
    "export const SCHEMA_MODULES: readonly Record<string, unknown>[] = [",
    ...files.map((_, i) => `  s${i},`),
    "];",
    "",
  ].join("\n");
}

/** The methods a contract file exports (`export const GET = route({...})`, the one form contracts use). */
function contractMethods(root, file) {
  const text = readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(/^export const ([A-Z]+) = route[<(]/gm)].map((m) => m[1]).filter((m) => METHODS.has(m));
}

/** `app/api/agents/[agent_id]/contract.ts` -> `/api/agents/[agent_id]`. */
const contractPath = (file) => file.replace(/^app/, "").replace(/\/contract\.ts$/, "") || "/";

/**
 * What server.ts needs of the contracts, read at build time from app/api/contracts.ts (bundled by
 * esbuild and run): the hot routes (`{ pattern, method }`) and the patterns of long routes.
 */
export async function contractFacts(root) {
  // Inside the project, so that the bundle's imports of packages resolve to its node_modules.
  mkdirSync(path.join(root, "node_modules/.cache"), { recursive: true });
  const dir = mkdtempSync(path.join(root, "node_modules/.cache/contracts-"));
  const outfile = path.join(dir, "contracts.mjs");
  try {
    await build({
      absWorkingDir: root,
      entryPoints: [CONTRACT_INDEX],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      outfile,
      logLevel: "warning",
    });
    const { CONTRACTS } = await import(pathToFileURL(outfile).href);
    return {
      hot: CONTRACTS.filter((c) => c.hot).map((c) => ({ pattern: c.path, method: c.method })),
      long: [...new Set(CONTRACTS.filter((c) => c.timeout === "long").map((c) => c.path))].sort(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes("--write")) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  writeFileSync(path.join(root, CONTRACT_INDEX), contractIndexSource(root));
  console.log(`wrote ${CONTRACT_INDEX}`);
  writeFileSync(path.join(root, SCHEMA_INDEX), schemaIndexSource(root));
  console.log(`wrote ${SCHEMA_INDEX}`);
}
