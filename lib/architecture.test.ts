// The import rules of ARCHITECTURE.md, checked on the source so that they cannot drift:
// route -> lib/http -> domain services -> adapters, never back up.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path.join(root, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

/** Import specifiers of a file, relative ones resolved to project paths (without extension). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((s) => {
    if (s.startsWith("@/")) return s.slice(2);
    if (s.startsWith(".")) return path.join(path.dirname(file), s);
    return s;
  });
}

const libFiles = sources("lib");
const under = (dir: string) => (f: string) => f === dir || f.startsWith(`${dir}/`);

describe("architecture", () => {
  it("reads the source it checks", () => {
    expect(libFiles.length).toBeGreaterThan(40);
    expect(importsOf("lib/http/handler.ts")).toContain("lib/validate");
  });

  it("keeps lib/http above the domain: no file under lib/ outside lib/http/ imports it", () => {
    const offenders = libFiles
      .filter((f) => !under("lib/http")(f))
      .flatMap((f) =>
        importsOf(f)
          .filter(under("lib/http"))
          .map((i) => `${f} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it("keeps Next.js out of the domain: only lib/http/ may import next or next-auth", () => {
    const offenders = libFiles
      .filter((f) => !under("lib/http")(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => /^next(-auth)?(\/|$)/.test(i))
          .map((i) => `${f} -> ${i}`),
      );
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
