// The console's browser code may use the response schemas of lib/ (types and validation), never a
// module that needs the server: a Prisma client, node:*, settings, the database. Checked on the source
// so that an import cannot creep in (docs/console.md, "Client structure").
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Browser code: the console's views and parts. page.tsx and layout.tsx are server components, and a
 * `*.server.ts` beside them is what they alone load on the server (the session check, a page's data).
 */
const BROWSER_DIRS = ["app/(console)", "app/login", "app/invite", "components"];
const SERVER_COMPONENT = /(^|\/)((page|layout)\.tsx|[^/]+\.server\.ts)$/;

/** Modules of lib/ besides the schemas that browser code and the schemas may load. */
const BROWSER_SAFE = [
  "lib/validate",
  "lib/validation-messages",
  "lib/errors",
  "lib/audit-actions",
  "lib/id-format",
  "lib/runs/statuses",
  "lib/secrets/refs",
  "lib/runtime/schema",
  "lib/workflow/schema",
  "lib/http/body-limit",
];
/** Packages the browser-safe modules may load: plain JavaScript, no Node built-ins. */
const SAFE_PACKAGES = ["zod", "jsonata"];
/** The module that calls the API (use-api.ts: each call named by its route's contract), and the client under it. */
const FETCHERS = ["components/console/use-api.ts", "components/console/api.ts"];
/**
 * Keeps a query of its own, fetched through use-api's `request`: the usage charts, whose range ends
 * when it is asked, so the key is the window and the instants are computed at each poll.
 */
const OWN_QUERY = ["components/console/usage-charts.tsx"];
/** Talks to the resumable upload endpoint (tus), not to /api/console. */
const OWN_FETCH = ["app/(console)/uploads/uploader.tsx"];
/** Type-only imports a server component hands down as props; erased from the browser bundle. */
const TYPE_ONLY_ALLOWED = ["lib/openapi/document", "lib/http/contract"];

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

interface Import {
  spec: string;
  typeOnly: boolean;
}

/** Every import and re-export of a file (side-effect and dynamic imports too), project paths resolved. */
function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const found: Import[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["']([^"']+)["']/g))
    found.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']/g)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\brequire\s*\(\s*["']([^"']+)["']/g)) found.push({ spec: m[1]!, typeOnly: false });
  return found.map(({ spec, typeOnly }) => {
    if (spec.startsWith("@/")) return { spec: spec.slice(2), typeOnly };
    if (spec.startsWith(".")) return { spec: path.join(path.dirname(file), spec), typeOnly };
    return { spec, typeOnly };
  });
}

const fileOf = (mod: string) =>
  [`${mod}.ts`, `${mod}.tsx`, `${mod}/index.ts`].find((f) => existsSync(path.join(root, f)));
const isSchemas = (mod: string) => /^lib\/.+\/schemas$/.test(mod);
const isLib = (mod: string) => mod.startsWith("lib/");

describe("browser safety", () => {
  const schemaModules = sources("lib")
    .filter((f) => f.endsWith("/schemas.ts"))
    .map((f) => f.replace(/\.ts$/, ""));

  it("finds the schema modules and the console's files", () => {
    expect(schemaModules).toContain("lib/runs/schemas");
    expect(BROWSER_DIRS.flatMap(sources).length).toBeGreaterThan(40);
  });

  it("keeps the schema modules and what they load free of server-only code", () => {
    const offenders: string[] = [];
    const seen = new Set<string>();
    const queue = [...schemaModules];
    while (queue.length) {
      const mod = queue.shift()!;
      if (seen.has(mod)) continue;
      seen.add(mod);
      if (!isSchemas(mod) && !BROWSER_SAFE.includes(mod)) offenders.push(`${mod} is loaded by a schema module`);
      const file = fileOf(mod);
      if (!file) {
        offenders.push(`${mod} not found`);
        continue;
      }
      for (const { spec } of importsOf(file)) {
        if (isLib(spec)) queue.push(spec);
        else if (!SAFE_PACKAGES.includes(spec)) offenders.push(`${file} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("lets the console's browser code import from lib/ only the schemas and the browser-safe modules", () => {
    const offenders = BROWSER_DIRS.flatMap(sources)
      .filter((f) => !SERVER_COMPONENT.test(f))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ spec }) => isLib(spec))
          .filter(({ spec, typeOnly }) => {
            if (isSchemas(spec) || BROWSER_SAFE.includes(spec)) return false;
            return !(typeOnly && TYPE_ONLY_ALLOWED.includes(spec));
          })
          .map(({ spec }) => `${f} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it("keeps the *.server.ts modules out of browser code: only the server components load them", () => {
    const browser = BROWSER_DIRS.flatMap(sources).filter((f) => !SERVER_COMPONENT.test(f));
    const offenders = browser.flatMap((f) =>
      importsOf(f)
        .filter(({ spec }) => spec.endsWith(".server"))
        .map(({ spec }) => `${f} -> ${spec}`),
    );
    expect(BROWSER_DIRS.flatMap(sources).filter((f) => f.endsWith(".server.ts")).length).toBeGreaterThan(0);
    expect(offenders).toEqual([]);
  });

  it("lets browser code read the route contracts (app/api) for their types only: no route module in the bundle", () => {
    const sourcesOf = BROWSER_DIRS.flatMap(sources).filter((f) => !SERVER_COMPONENT.test(f));
    const readers = sourcesOf.filter((f) => importsOf(f).some(({ spec }) => spec.startsWith("app/api/")));
    expect(readers).toContain("components/console/use-api.ts");
    const offenders = sourcesOf.flatMap((f) =>
      importsOf(f)
        .filter(({ spec, typeOnly }) => spec.startsWith("app/api/") && !typeOnly)
        .map(({ spec }) => `${f} -> ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it("makes the pages call the API only through components/console/use-api.ts", () => {
    const offenders = BROWSER_DIRS.flatMap(sources)
      .filter((f) => !FETCHERS.includes(f))
      .flatMap((f) => {
        const text = readFileSync(path.join(root, f), "utf8");
        const found: string[] = [];
        if (!OWN_QUERY.includes(f) && /\buse(Suspense)?(Infinite)?Query\s*\(/.test(text))
          found.push("a query of its own");
        if (!OWN_FETCH.includes(f) && /\bfetch\s*\(/.test(text)) found.push("fetch()");
        const client = text.match(/import\s*\{([^}]*)\}\s*from\s*["'](?:@\/components\/console|\.)\/api["']/);
        const raw = client?.[1]
          ?.split(",")
          .map((n) => n.trim())
          .filter((n) => ["api", "post", "patch", "del"].includes(n));
        if (raw?.length) found.push(`the raw client (${raw.join(", ")})`);
        return found.map((what) => `${f}: ${what}`);
      });
    expect(offenders).toEqual([]);
  });
});
