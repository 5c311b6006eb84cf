// The build's route table: every route file, with the methods it exports in any export form; and
// the route contracts beside them (app/api/contracts.ts), held to the route files.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONTRACTS } from "../app/api/contracts";
import { ANSWER, jsonSchemaOf, type RouteContract } from "../lib/http/contract";
import { Components } from "../lib/openapi/builder";
import { JSON_BODY_ERRORS } from "../lib/openapi/parts";
import { JsonObject } from "../lib/validate";
import { routePattern } from "../lib/http/routes";
import {
  CONTRACT_INDEX,
  contractFacts,
  contractFiles,
  contractIndexSource,
  SCHEMA_INDEX,
  schemaIndexSource,
  routeFiles,
  routeTable,
} from "./route-table.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("routeTable", () => {
  it("lists every app/**/route.ts with the HTTP methods it exports", async () => {
    const table: { file: string; methods: string[] }[] = await routeTable(root);
    expect(table.map((r) => r.file)).toEqual(routeFiles(root));
    expect(table.length).toBeGreaterThan(40);
    // One organization API (issue 31): /api/console keeps only what belongs to a browser session.
    const consoleFiles = table.filter((r) => r.file.startsWith("app/api/console/"));
    expect(consoleFiles.length).toBeGreaterThan(0);
    expect(consoleFiles.length).toBeLessThanOrEqual(10);
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
    // And the index of the schema modules, whose exports name the OpenAPI document's components.
    expect(readFileSync(path.join(root, SCHEMA_INDEX), "utf8")).toBe(schemaIndexSource(root));
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
    // Each contract sits beside its route: its path is its folder's, and it is exported under its
    // method (ContractMap's key, `METHOD path`, is read from the export).
    for (const file of contractFiles(root)) {
      const exported = Object.entries(await import(path.join(root, file))) as [string, RouteContract][];
      for (const [name, c] of exported) {
        expect(c.path, file).toBe(routePattern(file.replace(/contract\.ts$/, "route.ts")));
        expect(c.method, file).toBe(name);
      }
    }
  });

  it("has every route file's exports take their own contract: `export const GET = wrapper(contract.GET, ...)`", async () => {
    const table: { file: string; methods: string[] }[] = await routeTable(root);
    const offenders = table.flatMap((r) => {
      const taken = methodsTakingTheirContract(readFileSync(path.join(root, r.file), "utf8"));
      return r.methods.filter((m) => !taken.has(m)).map((m) => `${r.file}: ${m}`);
    });
    expect(offenders).toEqual([]);
  });

  it("tells an export that takes its contract from one that does not", () => {
    const taken = methodsTakingTheirContract(
      [
        'import * as contract from "./contract";',
        "export const GET = withPublic(contract.GET, async () => ({}));",
        'export const POST = factory("x", contract.POST);',
        "export const OPTIONS = withPublic({ ...contract.OPTIONS, hot: true }, async () => ({}));",
        "export const PUT = withPublic(contract.GET, async () => ({}));", // another method's contract
        "export const PATCH = plainHandler;",
        "const x = withPublic(contract.DELETE, async () => ({}));",
        "export { x as DELETE };",
        "export const { HEAD } = { HEAD: withPublic(contract.HEAD, async () => ({})) };",
      ].join("\n"),
    );
    expect([...taken].sort()).toEqual(["GET", "OPTIONS", "POST"]);
  });

  it("describes every answer: each contract has a success, and JSON answers a schema", () => {
    for (const c of CONTRACTS) {
      const statuses = Object.keys(c.responses).map(Number);
      // The 404 catch-alls answer nothing but the envelope.
      if (c.errors?.length === 1 && c.errors[0] === "not_found") continue;
      expect(
        statuses.some((s) => s < 400),
        `${c.method} ${c.path}`,
      ).toBe(true);
    }
    // The console answers JSON, but for a file it hands over (an export's download) and its redirect.
    const consoleJson = CONTRACTS.filter((c) => c.auth === "console").flatMap((c) =>
      Object.values(c.responses)
        .filter((a) => a !== ANSWER.file && a !== ANSWER.redirect)
        .map(jsonSchemaOf),
    );
    expect(consoleJson.length).toBeGreaterThan(2);
    expect(consoleJson.every(Boolean)).toBe(true);
  });

  it("lists on every console contract the codes its wrapper answers (lib/http/console.ts)", () => {
    const offenders = CONTRACTS.filter((c) => c.path.startsWith("/api/console/")).flatMap((c) => {
      const expected = [
        "invalid_request",
        ...(c.auth === "console" ? ["unauthorized"] : []),
        ...(c.method !== "GET" ? ["cross_site_request"] : []),
        ...(c.admin ? ["forbidden"] : []),
        ...(c.body ? JSON_BODY_ERRORS : []),
      ];
      const missing = expected.filter((code) => !(c.errors ?? []).includes(code as never));
      return missing.length ? [`${c.method} ${c.path}: ${missing.join(", ")}`] : [];
    });
    expect(offenders).toEqual([]);
  });

  it("pages every list the same way, with the defaults docs/api.md's Paging table gives", () => {
    const doc = readFileSync(path.join(root, "docs/api.md"), "utf8");
    const lists = CONTRACTS.filter(
      (c) => c.method === "GET" && c.query instanceof z.ZodObject && "cursor" in c.query.shape,
    );
    expect(lists.length).toBeGreaterThan(20);
    const problems = lists.flatMap((c) => {
      const query = (c.query as z.ZodObject).shape as Record<string, z.ZodType>;
      if (!query.limit) return [`${c.path}: takes a cursor but no limit`];
      const [first, cap] = [query.limit.parse(undefined), query.limit.parse("100000000")];
      const shown = c.path.replace(/\[(\w+)\]/g, "{$1}").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const row = new RegExp(`^\\| \`GET ${shown}\` \\| [^|]+ \\| ${first}, max ${cap} \\|`, "m");
      const out = row.test(doc) ? [] : [`${c.path}: no Paging row "${first}, max ${cap}" in docs/api.md`];
      if (!c.path.startsWith("/api/v1/organizations/")) return out;
      const ok = (c.responses as Record<number, unknown>)[200];
      const keys = ok instanceof z.ZodObject ? Object.keys(ok.shape) : [];
      // The rows first, then the paging fields, last.
      if (keys.slice(-2).join() !== "has_more,next_cursor") out.push(`${c.path}: answers ${keys.join(", ")}`);
      return out;
    });
    expect(problems).toEqual([]);
  });

  it("has no contract restate its path, its query or its body in OpenAPI text: the document reads them from the schemas", () => {
    const restated = CONTRACTS.filter((c) => c.openapi).flatMap((c) => {
      const doc = c.openapi!(new Components());
      const out: string[] = [];
      // A path parameter's description and example are its `params` field's `.meta()`.
      if (doc.parameters?.some((p) => p.in === "path")) out.push(`${c.method} ${c.path}: path parameters written out`);
      if (doc.parameters?.some((p) => p.in === "query"))
        out.push(`${c.method} ${c.path}: query parameters written out`);
      // A body of its own only where the contract's schema cannot say it: none (a form, tus's bytes),
      // or any JSON object whose fields the route checks by the agent's kind.
      if (doc.requestBody && c.body && c.body !== JsonObject)
        out.push(`${c.method} ${c.path}: requestBody written out`);
      return out;
    });
    expect(restated).toEqual([]);
  });

  it("gives every route whose path has segments a params schema of exactly those names", () => {
    // z.object drops the keys it does not name: a segment left out would reach the handler undefined.
    // A catch-all (tus's `[[...path]]`) is read by its handler; its OpenAPI path has `pathParams`.
    const wrong = CONTRACTS.filter((c) => !c.path.includes("[...") && !c.path.includes("[[...")).flatMap((c) => {
      const names = [...c.path.matchAll(/\[([a-z_]+)\]/g)].map((m) => m[1]!);
      const fields = c.params instanceof z.ZodObject ? Object.keys(c.params.shape) : [];
      return [...fields].sort().join() === [...names].sort().join()
        ? []
        : [`${c.method} ${c.path}: params ${fields.join(", ") || "none"}`];
    });
    expect(wrong).toEqual([]);
  });

  it("gives the server the hot and long routes the contracts name", async () => {
    const facts = await contractFacts(root);
    expect(facts.hot).toEqual(CONTRACTS.filter((c) => c.hot).map((c) => ({ pattern: c.path, method: c.method })));
    expect(facts.hot.length).toBe(3);
    expect(facts.long).toEqual(["/api/agents/[agent_id]/upload", "/api/agents/[agent_id]/upload/tus/[[...path]]"]);
  });
});

/**
 * The HTTP methods a route file exports as `export const M = f(..., contract.M, ...)`, where
 * `contract` is `import * as contract from "./contract"`: the export takes its own method's
 * contract. Any other form (a re-export, a destructuring, a handler built without it) is not.
 */
function methodsTakingTheirContract(text: string): Set<string> {
  const source = ts.createSourceFile("route.ts", text, ts.ScriptTarget.Latest, true);
  let ns: string | undefined;
  for (const s of source.statements) {
    if (
      ts.isImportDeclaration(s) &&
      ts.isStringLiteral(s.moduleSpecifier) &&
      s.moduleSpecifier.text === "./contract" &&
      s.importClause?.namedBindings &&
      ts.isNamespaceImport(s.importClause.namedBindings)
    )
      ns = s.importClause.namedBindings.name.text;
  }
  const taken = new Set<string>();
  if (!ns) return taken;
  const isOwn = (a: ts.Node, method: string) =>
    ts.isPropertyAccessExpression(a) &&
    ts.isIdentifier(a.expression) &&
    a.expression.text === ns &&
    a.name.text === method;
  // `contract.M`, or `{ ...contract.M, agentKind }` (a check the handler adds to its own contract).
  const passes = (node: ts.Node, method: string): boolean =>
    ts.isCallExpression(node) &&
    node.arguments.some(
      (a) =>
        isOwn(a, method) ||
        (ts.isObjectLiteralExpression(a) &&
          a.properties.some((p) => ts.isSpreadAssignment(p) && isOwn(p.expression, method))),
    );
  for (const s of source.statements) {
    if (!ts.isVariableStatement(s) || !s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of s.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer && passes(d.initializer, d.name.text)) taken.add(d.name.text);
    }
  }
  return taken;
}
