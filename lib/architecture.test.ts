// The import rules of ARCHITECTURE.md, checked on the source so that they cannot drift:
// route -> lib/http -> domain services -> adapters, never back up.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { HOT_ROUTE_FILES } from "../eslint.config.mjs";
import { CONTRACTS } from "../app/api/contracts";

const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path.join(root, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

/**
 * Import specifiers of a file, relative ones resolved to project paths (without extension). Read by
 * TypeScript's own scanner, so that every form counts: static imports (type-only ones too),
 * `export ... from`, side-effect imports, dynamic `import()` and `require()`.
 */
function importsOf(file: string): string[] {
  return specifiersIn(readFileSync(path.join(root, file), "utf8")).map((s) => {
    if (s.startsWith("@/")) return s.slice(2);
    if (s.startsWith(".")) return path.join(path.dirname(file), s);
    return s;
  });
}

function specifiersIn(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The node of the folder graph a lib/ file or import belongs to: its first folder under lib/, or,
 * for a file directly in lib/ (lib/audit.ts, lib/env.ts), the file itself. Lumping the files of
 * lib/ into one node would tie together modules that import nothing of each other (lib/env.ts is
 * used by everything, lib/boot.ts uses almost everything) and report cycles that are not there.
 */
function nodeOf(p: string): string | undefined {
  const parts = p.split("/");
  if (parts[0] !== "lib" || parts.length < 2) return undefined;
  return parts.length > 2 ? parts[1] : parts[1]!.replace(/\.tsx?$/, "");
}

/** Folder-level edges of lib/: "from -> to", each with the file imports that make it. */
function folderEdges(files: string[], imports: (f: string) => string[] = importsOf): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const from = nodeOf(f)!;
    for (const i of imports(f)) {
      const to = nodeOf(i);
      if (!to || to === from || to === "generated") continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${f} -> ${i}`]);
    }
  }
  return edges;
}

/**
 * File-level edges between files of the same folder ("a.ts -> b.ts"): an import of a sibling file
 * (or of `./index`), whatever its form, type-only ones included.
 */
function fileEdges(files: string[], imports: (f: string) => string[] = importsOf): string[] {
  const known = new Set(files);
  const edges = new Set<string>();
  for (const f of files) {
    for (const i of imports(f)) {
      const to = [`${i}.ts`, `${i}.tsx`, `${i}/index.ts`, i].find((c) => known.has(c));
      if (to && to !== f && path.dirname(to) === path.dirname(f)) edges.add(`${f} -> ${to}`);
    }
  }
  return [...edges];
}

/** The groups of nodes that reach each other (Tarjan's strongly connected components, size > 1). */
function cycles(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [a, b] = e.split(" -> ") as [string, string];
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The project file an import names, or undefined for a package. */
function fileOf(spec: string): string | undefined {
  for (const f of [spec, `${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`]) {
    if (/^(lib|app|components)\//.test(f) && existsSync(path.join(root, f)) && statSync(path.join(root, f)).isFile())
      return f;
  }
  return undefined;
}

/** Every project file `start` loads, itself included, following each form of import. */
function reachableFrom(start: string): string[] {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f) || f.startsWith("lib/generated/")) return;
    seen.add(f);
    for (const i of importsOf(f)) {
      const next = fileOf(i);
      if (next) walk(next);
    }
  };
  walk(start);
  return [...seen];
}

const libFiles = sources("lib");
const under = (dir: string) => (f: string) => f === dir || f.startsWith(`${dir}/`);

/**
 * Adapters reach a database, a disk, a bucket or the network for anyone, and know no domain; so does
 * lib/metrics, which every layer records into (the scrape that reads domain tables is
 * lib/observability).
 */
const ADAPTERS = ["db", "queue", "storage", "net", "metrics"];
/** Domain folders: the services of ARCHITECTURE.md, and lib/worker and lib/observability above them. */
const DOMAINS = [
  "agents",
  "auth",
  "callbacks",
  "conversations",
  "files",
  "keys",
  "orgs",
  "runs",
  "runtime",
  "secrets",
  "workflow",
  "worker",
  "observability",
  "http",
];

describe("architecture", () => {
  it("reads the source it checks", () => {
    expect(libFiles.length).toBeGreaterThan(40);
    expect(importsOf("lib/http/handler.ts")).toContain("lib/validate");
  });

  it("finds every form of import", () => {
    const text = [
      'import a from "./static";',
      'import type { B } from "./type-only";',
      'export { c } from "./re-export";',
      'export * from "./re-export-all";',
      'import "./side-effect";',
      'const d = await import("./dynamic");',
      'const e = require("./required");',
    ].join("\n");
    expect(specifiersIn(text)).toEqual([
      "./static",
      "./type-only",
      "./re-export",
      "./re-export-all",
      "./side-effect",
      "./dynamic",
      "./required",
    ]);
  });

  it("has no cycle between the folders of lib/", () => {
    const edges = folderEdges(libFiles);
    const left = [...edges.keys()];
    const found = cycles(left).map((group) => {
      const inside = left.filter((e) => group.includes(e.split(" -> ")[0]!) && group.includes(e.split(" -> ")[1]!));
      return { group, edges: inside.map((e) => `${e}: ${edges.get(e)![0]}`) };
    });
    expect(found).toEqual([]);
  });

  it("has no import cycle between the files of one folder (type-only imports too)", () => {
    // Every folder of the project's code: a cycle of files inside one is two modules that are one,
    // or a shared type that belongs in a module of its own (lib/storage/types.ts, lib/runs/statuses.ts).
    const files = [...libFiles, ...sources("app"), ...sources("components"), ...sources("scripts")];
    const edges = fileEdges(files);
    const found = cycles(edges).map((group) => group.join(", "));
    expect(found).toEqual([]);
  });

  it("finds a cycle between the files of a folder when there is one", () => {
    const files = ["lib/x/a.ts", "lib/x/b.ts", "lib/x/c.ts", "lib/y/d.ts"];
    const imports: Record<string, string[]> = {
      "lib/x/a.ts": ["lib/x/b"],
      "lib/x/b.ts": ["lib/x/c", "lib/y/d"],
      "lib/x/c.ts": ["lib/x/a"],
      "lib/y/d.ts": ["lib/x/a"],
    };
    expect(cycles(fileEdges(files, (f) => imports[f]!))).toEqual([["lib/x/a.ts", "lib/x/b.ts", "lib/x/c.ts"]]);
  });

  it("finds a cycle between folders when there is one", () => {
    expect(cycles(["a -> b", "b -> c", "c -> a", "c -> d"])).toEqual([["a", "b", "c"]]);
    expect(cycles(["a -> b", "b -> c"])).toEqual([]);
  });

  it("keeps the adapters (db, queue, storage, net) and lib/metrics free of domains", () => {
    const offenders = [...folderEdges(libFiles)].flatMap(([edge, why]) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return ADAPTERS.includes(from) && DOMAINS.includes(to) ? why : [];
    });
    expect(offenders).toEqual([]);
  });

  it("keeps lib/http above the domain: under lib/ only the server's plumbing and the OpenAPI generator, above it, import it", () => {
    const offenders = libFiles
      .filter((f) => !["lib/http", "lib/server", "lib/openapi"].some((dir) => under(dir)(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter(under("lib/http"))
          .map((i) => `${f} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it("keeps the server's plumbing (lib/server) and the OpenAPI generator (lib/openapi) on top: nothing under lib/ imports them", () => {
    const offenders = ["lib/server", "lib/openapi"].flatMap((dir) =>
      libFiles
        .filter((f) => !under(dir)(f))
        .flatMap((f) =>
          importsOf(f)
            .filter(under(dir))
            .map((i) => `${f} -> ${i}`),
        ),
    );
    expect(offenders).toEqual([]);
  });

  it("keeps Next.js out of the domain: only lib/http/ and lib/server/ may import next or next-auth", () => {
    const offenders = libFiles
      .filter((f) => !under("lib/http")(f) && !under("lib/server")(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => /^next(-auth)?(\/|$)/.test(i))
          .map((i) => `${f} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it("loads Next's private modules (next/dist) only through lib/server/next-internals.ts", () => {
    const files = [...libFiles, ...sources("app"), ...sources("scripts"), "server.ts"].filter(
      (f) => f !== "lib/server/next-internals.ts",
    );
    const offenders = files.filter((f) => readFileSync(path.join(root, f), "utf8").includes("next/dist"));
    expect(offenders).toEqual([]);
  });

  it("lints the route files of exactly the hot routes for Next's request-scoped features", () => {
    // The hot routes are those whose contract says so (the build gives lib/server/fast-routes.ts the same list).
    const hot = CONTRACTS.filter((c) => c.hot).map((c) => `app${c.path}/route.ts`);
    expect(hot.length).toBeGreaterThan(0);
    expect([...HOT_ROUTE_FILES].sort()).toEqual([...new Set(hot)].sort());
  });

  it("keeps Next's request-scoped features out of everything the hot routes load", () => {
    // The lint rule sees the route files; this follows their imports. headers(), cookies(),
    // draftMode(), after() and connection() need the request scope the fast path does not set up.
    const scoped =
      /from\s*["']next\/headers["']|import\s*\(\s*["']next\/headers["']|\{[^}]*\b(after|connection)\b[^}]*\}\s*from\s*["']next\/server["']/;
    const loaded = HOT_ROUTE_FILES.flatMap(reachableFrom);
    expect(loaded.length).toBeGreaterThan(20);
    const offenders = [...new Set(loaded)].filter((f) => scoped.test(readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("lets lib/workflow use lib/runs, never the other way", () => {
    const offenders = libFiles.filter(under("lib/runs")).flatMap((f) =>
      importsOf(f)
        .filter(under("lib/workflow"))
        .map((i) => `${f} -> ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it("reads settings only through lib/env.ts", () => {
    const files = [...libFiles, ...sources("app"), "server.ts"].filter((f) => f !== "lib/env.ts");
    const offenders = files.filter((f) => /process\.env\b/.test(readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps process-wide state behind lib/process-state.ts: no other file writes globalThis", () => {
    const files = [...libFiles, ...sources("app"), "server.ts"].filter((f) => f !== "lib/process-state.ts");
    const offenders = files.filter((f) =>
      /globalThis\s+as\b|globalThis\[|globalThis\.__/.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("keeps test fixtures out of production code: only tests, benchmarks and test-support import test-support", () => {
    const production = [...libFiles, ...sources("app"), ...sources("components"), ...sources("scripts"), "server.ts"];
    const offenders = production.flatMap((f) =>
      importsOf(f)
        .filter(under("test-support"))
        .map((i) => `${f} -> ${i}`),
    );
    expect(offenders).toEqual([]);
  });
});
