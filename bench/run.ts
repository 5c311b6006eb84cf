// npm run bench: runs every benchmark module (bench/*.bench.ts) in turn, or those named on the
// command line (npm run bench -- upload trigger). Each module's default export prints its results.
import { readdirSync } from "node:fs";
import path from "node:path";

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const modules = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !wanted.length || wanted.some((w) => f.startsWith(w)))
  .sort();
for (const file of modules) {
  console.log(`\n== ${file}`);
  const mod = (await import(path.join(dir, file))) as { default: () => Promise<void> };
  await mod.default();
}
