import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES } from "./env";

/** The variables named in the first column of the README's configuration table. */
function readmeVariables(): string[] {
  const readme = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|/.test(l));
  expect(start, "the README has a configuration table").toBeGreaterThan(-1);
  const names: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const first = line.split("|")[1]!;
    names.push(...[...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  }
  return names;
}

describe("configuration", () => {
  it("documents in the README exactly the variables of the env schema", () => {
    const documented = readmeVariables();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});
