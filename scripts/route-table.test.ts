// The build's route table: every route file, with the methods it exports in any export form; and
// the route contracts beside them (app/api/contracts.ts), held to the route files.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../app/api/contracts";
import type { RouteContract } from "../lib/http/contract";
import { routePattern } from "../lib/http/routes";
import {
  CONTRACT_INDEX,
  contractFacts,
  contractFiles,
  contractIndexSource,
  routeFiles,
  routeTable,
} from "./route-table.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("routeTable", () => {
  it("lists every app/**/route.ts with the HTTP methods it exports", async () => {
    const table: { file: string; methods: string[] }[] = await routeTable(root);
    expect(table.map((r) => r.file)).toEqual(routeFiles(root));
    expect(table.length).toBeGreaterThan(40);
    const methodsOf = (file: string) => table.find((r) => r.file === file)?.methods;
    expect(methodsOf("app/api/health/route.ts")).toEqual(["GET"]); // export const GET
    expect(methodsOf("app/api/auth/[...nextauth]/route.ts")).toEqual(["GET", "POST"]); // export const { GET, POST } = ...
    expect(methodsOf("app/api/[...path]/route.ts")).toEqual(["DELETE", "GET", "PATCH", "POST", "PUT"]); // export { x as GET }
    expect(methodsOf("app/api/agents/[agent_id]/upload/tus/[[...path]]/route.ts")).toEqual([
      "DELETE",
      "GET",
      "HEAD",
      "OPTIONS",
      "PATCH",
      "POST",
    ]);
    for (const r of table) expect(r.methods.length, r.file).toBeGreaterThan(0);
  });
});

describe("route contracts", () => {
  it("app/api/contracts.ts is the index of every contract file (node scripts/route-table.mjs --write)", () => {
    expect(readFileSync(path.join(root, CONTRACT_INDEX), "utf8")).toBe(contractIndexSource(root));
  });

  it("gives every route file a contract per method it exports, and no contract without its route", async () => {
    const table: { file: string; methods: string[] }[] = await routeTable(root);
    const described = new Map<string, string[]>();
    for (const c of CONTRACTS) described.set(c.path, [...(described.get(c.path) ?? []), c.method]);
    for (const r of table) {
      const methods = described.get(routePattern(r.file))?.sort();
      expect(methods, `${r.file}: its contract.ts must describe exactly the methods it exports`).toEqual(r.methods);
    }
    const patterns = new Set(table.map((r) => routePattern(r.file)));
    expect([...described.keys()].filter((p) => !patterns.has(p))).toEqual([]);
    // Each contract sits beside its route: its path is its folder's.
    for (const file of contractFiles(root)) {
      const exported = Object.values(await import(path.join(root, file))) as RouteContract[];
      for (const c of exported) expect(c.path, file).toBe(routePattern(file.replace(/contract\.ts$/, "route.ts")));
    }
  });

  it("gives the server the hot and long routes the contracts name", async () => {
    const facts = await contractFacts(root);
    expect(facts.hot).toEqual(CONTRACTS.filter((c) => c.hot).map((c) => ({ pattern: c.path, method: c.method })));
    expect(facts.hot.length).toBe(3);
    expect(facts.long).toEqual(["/api/agents/[agent_id]/upload", "/api/agents/[agent_id]/upload/tus/[[...path]]"]);
  });
});
