// The OpenAPI document against the code it describes: every public and management route file with
// exactly the methods it exports, the error codes of lib/errors.ts, the schemas the routes validate.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { CONTRACTS } from "../app/api/contracts";
import { describe, expect, it } from "vitest";
import { routeTable } from "./route-table.mjs";
import { ConversationTriggerBody } from "../lib/conversations/schemas";
import { ERROR_STATUS } from "../lib/errors";
import { routePattern } from "../lib/http/routes";
import { buildOpenApiDocument, ERROR_DOCS } from "../lib/openapi/document";
import { Components, pathParameters, queryParameters } from "../lib/openapi/builder";
import { z } from "zod";
import { OrgParams } from "../lib/validate";
import { jsonSchemaOf, openApiPath } from "../lib/http/contract";
import { schemaRef } from "../lib/openapi/answers";

const root = path.resolve(import.meta.dirname, "..");
const doc = buildOpenApiDocument(CONTRACTS);
const schemas = (doc.components as { schemas: Record<string, any> }).schemas;

/** Route files the document leaves out, and why. */
const PRIVATE = [
  /^\/api\/console\//, // the console's backend-for-frontend (session cookie)
  /^\/api\/auth\//, // Auth.js, the console's sign-in
  /^\/api(\/\[\.\.\.path\])?$/, // the catch-all (and /api itself) that answers 404 in the envelope
];

/** `/api/agents/[agent_id]/upload/tus/[[...path]]` -> the OpenAPI paths it serves. */
function openApiPaths(pattern: string): string[] {
  const named = pattern.replace(/\[([a-z_]+)\]/g, "{$1}");
  // tus's optional catch-all: the creation URL, and the upload's URL (one segment).
  if (named.endsWith("/[[...path]]")) {
    const base = named.slice(0, -"/[[...path]]".length);
    return [base, `${base}/{upload_id}`];
  }
  return [named];
}

describe("the OpenAPI document", () => {
  it("describes every public and management route with exactly the methods its file exports", async () => {
    const table: { file: string; methods: string[] }[] = await routeTable(root);
    const routes = table.filter((r) => !PRIVATE.some((re) => re.test(routePattern(r.file))));
    expect(routes.length).toBeGreaterThan(20);
    const documented = new Set<string>();
    for (const route of routes) {
      const paths = openApiPaths(routePattern(route.file));
      const methods = paths.flatMap((p) => Object.keys(doc.paths[p] ?? {}).map((m) => m.toUpperCase()));
      expect(methods.sort(), `${route.file}: add its operations to lib/openapi`).toEqual(route.methods);
      for (const p of paths) documented.add(p);
    }
    // ... and nothing that no route serves.
    expect(Object.keys(doc.paths).filter((p) => !documented.has(p))).toEqual([]);
  });

  it("declares every operation's tag, so the reference (/docs/api) shows every operation under one", () => {
    const declared = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    const used = Object.values(doc.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) =>
      Object.values(item).flatMap((op) => op.tags ?? []),
    );
    expect(used.length).toBeGreaterThan(30);
    expect([...new Set(used.filter((t) => !declared.has(t)))]).toEqual([]);
  });

  it("offers both ways of a member on every organization API operation: a user token or the console's session cookie", () => {
    const org = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>).filter(([p]) =>
      p.startsWith("/api/v1/organizations/{org_id}/"),
    );
    expect(org.length).toBeGreaterThan(15);
    for (const [p, item] of org) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.security, `${method} ${p}`).toEqual([{ userToken: [] }, { consoleSession: [] }]);
      }
    }
    const schemes = (doc.components as { securitySchemes: Record<string, any> }).securitySchemes;
    expect(schemes.consoleSession).toMatchObject({ type: "apiKey", in: "cookie" });
  });

  it("leaves the console's private routes out", () => {
    expect(Object.keys(doc.paths).filter((p) => PRIVATE.some((re) => re.test(p)))).toEqual([]);
  });

  it("names every error code of lib/errors.ts, each with its status and when it is answered", () => {
    expect(schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_STATUS));
    expect(Object.keys(ERROR_DOCS).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    const description = (doc.info as { description: string }).description;
    for (const [code, status] of Object.entries(ERROR_STATUS))
      expect(description).toContain(`| ${status} | \`${code}\` |`);
  });

  it("answers each error under the status lib/errors.ts gives its code", () => {
    const responses = (doc.components as { responses: Record<string, any> }).responses;
    let checked = 0;
    for (const [name, res] of Object.entries(responses)) {
      const [, status] = /^Error(\d+)_/.exec(name)!;
      const codes: string[] = res.content["application/json"].schema.allOf[1].properties.error.properties.code.enum;
      for (const code of codes)
        expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${name}: ${code}`).toBe(Number(status));
      checked += codes.length;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("gives every operation an id, a summary, a tag and a success answer", () => {
    const ids = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item) as [string, any][]) {
        expect(op.operationId, `${method} ${p}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect(op.summary.length).toBeGreaterThan(3);
        expect(op.tags).toHaveLength(1);
        expect(
          Object.keys(op.responses).some((s) => /^[23]/.test(s)),
          `${method} ${p}`,
        ).toBe(true);
      }
    }
    expect(ids.size).toBeGreaterThan(30);
  });

  it("takes its request schemas from the zod schemas the routes validate with", () => {
    // The JSON Schema accepts what zod accepts and refuses what it refuses, on the same samples.
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(schemas.ConversationTriggerBody);
    const samples: unknown[] = [
      { message: "hi" },
      { message: "hi", attachments: [{ file_id: `fi_${"a".repeat(32)}` }], extra: true },
      { message: "" },
      { message: "hi", attachments: [{ file_id: "fi_bad" }] },
      { message: "hi", attachments: [{ file_id: `fi_${"a".repeat(32)}`, more: 1 }] },
      { session_id: "sess_x" },
    ];
    for (const sample of samples) {
      expect(validate(sample), JSON.stringify(sample)).toBe(ConversationTriggerBody.safeParse(sample).success);
    }
  });

  it("derives each operation's answers from its contract's responses: a schema written once", () => {
    let checked = 0;
    for (const contract of CONTRACTS.filter((c) => c.openapi)) {
      const where = `${contract.method} ${contract.path}`;
      const path = contract.openapi!(new Components()).path ?? openApiPath(contract.path);
      const op = (doc.paths[path] as Record<string, any>)[contract.method.toLowerCase()];
      const errorStatuses = (contract.errors ?? []).map((code) => String(ERROR_STATUS[code]));
      expect(Object.keys(op.responses).sort(), where).toEqual(
        [...new Set([...Object.keys(contract.responses), ...errorStatuses])].sort(),
      );
      for (const [status, answer] of Object.entries(contract.responses)) {
        // tus's plain-text refusals share their status with envelope errors: successes only here.
        if (Number(status) >= 400) continue;
        const schema = jsonSchemaOf(answer);
        const media = op.responses[status].content?.["application/json"];
        expect(Boolean(media), `${where} ${status}`).toBe(Boolean(schema));
        if (!schema) continue;
        // The answer refers to the contract's own schema (its component, by its export's name).
        expect(media.schema, `${where} ${status}`).toEqual(schemaRef(new Components(), schema));
        const ref: string | undefined = media.schema.$ref ?? media.schema.anyOf?.[0]?.$ref;
        if (ref) expect(schemas[ref.split("/").pop()!], ref).toBeDefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it("writes patterns that JSON Schema tools in other languages read: each compiles in Python's re", () => {
    const patterns = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object")
        for (const [k, child] of Object.entries(v)) {
          if (k === "pattern" && typeof child === "string") patterns.add(child);
          else walk(child);
        }
    };
    walk(doc);
    expect(patterns.size).toBeGreaterThan(20);
    const program = [
      "import json, re, sys",
      "for p in json.load(sys.stdin):",
      "    try: re.compile(p)",
      "    except re.error as e: print(p, e)",
    ].join("\n");
    const run = spawnSync("python3", ["-c", program], { input: JSON.stringify([...patterns]), encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
  });

  it("states the checks a schema makes beyond its type (refinements, trimming) for clients to make too", () => {
    const roll = schemas.RollKeyBody.properties.grace_period_seconds;
    expect(roll.anyOf).toEqual([{ const: 0 }, { minimum: 3600 }]);
    expect(schemas.UpdateKeyBody.minProperties).toBe(1);
    expect(schemas.ResolveBody.then.required).toEqual(["modified_data"]);
    expect(schemas.AlertRuleBody.properties.url.anyOf[0].format).toBe("uri");
    // A trimmed name's length is of the trimmed text: spaces around it do not count.
    const name = new RegExp(schemas.MintKeyBody.properties.name.pattern);
    expect(schemas.MintKeyBody.properties.name.maxLength).toBeUndefined();
    expect([`  ${"n".repeat(200)}  `, "n", " n "].every((v) => name.test(v))).toBe(true);
    expect(["", "   ", "n".repeat(201)].some((v) => name.test(v))).toBe(false);
  });

  it("describes each path parameter by its field of the contract's params, in the path's order", () => {
    let checked = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      const names = [...p.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item) as [string, any][]) {
        const path = (op.parameters ?? []).filter((x: any) => x.in === "path");
        expect(
          path.map((x: any) => x.name),
          `${method} ${p}`,
        ).toEqual(names);
        for (const x of path) {
          expect(x.required, `${method} ${p} ${x.name}`).toBe(true);
          expect(x.description, `${method} ${p} ${x.name}`).toBeTruthy();
          expect(x.example, `${method} ${p} ${x.name}`).toBeDefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
    // One place says what `org_id` is: its field's `.meta()`.
    const orgId = (doc.paths["/api/v1/organizations/{org_id}/agents"]!.get as any).parameters[0];
    expect(orgId).toEqual({
      name: "org_id",
      in: "path",
      required: true,
      description: OrgParams.shape.org_id.meta()!.description,
      schema: { type: "string" },
      example: OrgParams.shape.org_id.meta()!.example,
    });
  });

  it("refuses a path parameter its schema does not describe, and a query field without words", () => {
    const id = z.string().meta({ description: "An id.", example: "x_1" });
    expect(pathParameters("/a/{b}/c/{d}", z.object({ d: id, b: id })).map((x) => x.name)).toEqual(["b", "d"]);
    expect(() => pathParameters("/a/{b}", undefined)).toThrow(/need a z.object/);
    expect(() => pathParameters("/a/{b}", z.object({ c: id }))).toThrow(/the path's parameters are b/);
    expect(() => pathParameters("/a/{b}", z.object({ b: z.string() }))).toThrow(/no description/);
    expect(() => pathParameters("/a/{b}", z.object({ b: z.string().meta({ description: "B." }) }))).toThrow(
      /no example/,
    );
    expect(() => queryParameters(z.object({ q: z.string().optional() }))).toThrow(
      /query parameter q has no description/,
    );
  });

  it("is the same document on every build", () => {
    expect(JSON.stringify(buildOpenApiDocument(CONTRACTS))).toBe(JSON.stringify(doc));
  });
});
