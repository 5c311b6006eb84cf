// The route table the production server uses to answer a method a route does not serve (405 with
// `Allow`, lib/http/node-server.ts): every app/**/route.ts and the HTTP methods it exports, read
// by esbuild's parser (every export form: `export const GET`, `export { x as GET }`,
// `export const { GET, POST } = handlers`). Called by scripts/prepare.mjs at build time.
import { readdirSync } from "node:fs";
import path from "node:path";
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
