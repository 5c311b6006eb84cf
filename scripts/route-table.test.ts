// The build's route table: every route file, with the methods it exports in any export form.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeFiles, routeTable } from "./route-table.mjs";

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
