// docs/security.md and the security suite stay in step: every threat-model row names a test that
// exists (an e2e/security test or e2e/ui spec whose title starts with the row's id), and every such
// test's id is a row of the table.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** The ids in the first column of the threat model's table. */
function rowsOfDoc(): string[] {
  const doc = readFileSync(path.join(root, "docs/security.md"), "utf8");
  return [...doc.matchAll(/^\| (T-[A-Z]+-\d+) \|/gm)].map((m) => m[1]!);
}

/** Ids that open a describe or test title in the attack suites. */
function idsOfTests(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const dirs = [
    ["e2e/security", ".test.ts"],
    ["e2e/ui", ".spec.ts"],
  ] as const;
  for (const [dir, suffix] of dirs) {
    for (const file of readdirSync(path.join(root, dir)).filter((f) => f.endsWith(suffix))) {
      const text = readFileSync(path.join(root, dir, file), "utf8");
      for (const m of text.matchAll(/\b(?:describe|it|test)(?:\.each\([^)]*\))?\(\s*["'`](T-[A-Z]+-\d+)\b/g)) {
        found.set(m[1]!, [...(found.get(m[1]!) ?? []), `${dir}/${file}`]);
      }
    }
  }
  return found;
}

describe("the threat model (docs/security.md)", () => {
  it("has a test from outside for every row, and a row for every test's id", () => {
    const rows = rowsOfDoc();
    const tests = idsOfTests();
    expect(rows.length).toBeGreaterThan(20);
    expect(new Set(rows).size, "an id appears twice in the table").toBe(rows.length);
    expect(
      rows.filter((id) => !tests.has(id)),
      "rows without a test",
    ).toEqual([]);
    expect(
      [...tests.keys()].filter((id) => !rows.includes(id)),
      "tests whose id is not a row",
    ).toEqual([]);
  });

  it("names only test files that exist", () => {
    const doc = readFileSync(path.join(root, "docs/security.md"), "utf8");
    const files = [
      ...new Set([...doc.matchAll(/`((?:e2e|lib|bench)\/[^`\s*]+\.(?:test|spec|bench)\.ts)`/g)].map((m) => m[1]!)),
    ];
    expect(files.length).toBeGreaterThan(10);
    const missing = files.filter((f) => {
      try {
        readFileSync(path.join(root, f));
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
