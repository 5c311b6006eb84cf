// Every route file under app/ answers a method it does not serve with 405, the error envelope,
// `Allow` and X-Request-Id. The routes are read from the file system, so a new route file is
// checked without being listed anywhere. The methods a file exports are read from its source
// here (not from the server's build-time table), and checked against Next's own `Allow` on OPTIONS.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { call, expectError } from "./helpers";

const root = path.resolve(import.meta.dirname, "../..");
const CHECKED = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ALL = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

/** The HTTP methods a route file exports, in each export form the project uses. */
function exportedMethods(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/g)) names.add(m[1]!);
  for (const m of source.matchAll(/export\s+(?:const|let)\s*\{([^}]*)\}\s*=/g))
    for (const part of m[1]!.split(",")) names.add(part.split(":").pop()!.trim());
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const part of m[1]!.split(","))
      names.add(
        part
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      );
  return ALL.filter((method) => names.has(method));
}

/** What a route should say it serves: its methods, HEAD with GET, and OPTIONS (as Next does). */
function expectedAllow(exported: string[]): string {
  const set = new Set([...exported, "OPTIONS", ...(exported.includes("GET") ? ["HEAD"] : [])]);
  return [...set].sort().join(", ");
}

const ID_PREFIX: Record<string, string> = {
  agent_id: "agt",
  run_id: "run",
  session_id: "sess",
  message_id: "msg",
  org_id: "org",
  key_id: "key",
  user_id: "usr",
};

/** A concrete URL that reaches the route of this folder path (dynamic segments filled in). */
function concretePath(segments: string[]): string {
  const filled = segments
    .filter((s) => !/^\(.*\)$/.test(s))
    .flatMap((s) => {
      if (s.startsWith("[[...")) return ["upl_0123456789abcdef"]; // optional catch-all: one segment
      if (s.startsWith("[...")) return s === "[...nextauth]" ? ["session"] : ["no", "such", "route"];
      const param = /^\[(.+)\]$/.exec(s)?.[1];
      if (!param) return [s];
      return [`${ID_PREFIX[param] ?? "id"}_0MethodsTest0000000000000`];
    });
  return `/${filled.join("/")}`;
}

/** The tus route serves fewer methods at an upload's URL (the URL tested here) than it exports. */
const SERVED_AT_URL: Record<string, string[]> = {
  "app/api/agents/[agent_id]/upload/tus/[[...path]]/route.ts": ["GET", "PATCH", "DELETE", "OPTIONS"],
};

const routes = readdirSync(path.join(root, "app"), { recursive: true })
  .map((f) => String(f).split(path.sep))
  .filter((parts) => parts.at(-1) === "route.ts")
  .map((parts) => {
    const file = `app/${parts.join("/")}`;
    const exported = SERVED_AT_URL[file] ?? exportedMethods(readFileSync(path.join(root, file), "utf8"));
    return { file, exported, url: concretePath(parts.slice(0, -1)) };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

describe("route files", () => {
  it("are all found, and each exports at least one method", () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const r of routes) expect(r.exported.length, r.file).toBeGreaterThan(0);
    expect(routes.find((r) => r.file === "app/api/health/route.ts")?.exported).toEqual(["GET"]);
  });
});

describe.each(routes)("$file", ({ exported, url }) => {
  const missing = CHECKED.filter((m) => !exported.includes(m));

  it.runIf(!exported.includes("OPTIONS"))("OPTIONS: Next's own Allow agrees with the exports read here", async () => {
    const res = await call("OPTIONS", url);
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(expectedAllow(exported));
  });

  it.runIf(missing.length > 0)(`${missing.join(", ")}: 405, envelope, Allow, X-Request-Id`, async () => {
    for (const method of missing) {
      const res = await call(method, url, method === "GET" ? {} : { body: {} });
      expectError(res, 405, "method_not_allowed");
      expect(res.headers.get("allow"), `${method} ${url}`).toBe(expectedAllow(exported));
      expect(res.body.error.details.allowed_methods.join(", ")).toBe(expectedAllow(exported));
    }
  });

  it.runIf(!exported.includes("GET"))("HEAD: 405 with Allow and X-Request-Id, no body", async () => {
    const res = await call("HEAD", url);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(expectedAllow(exported));
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.text).toBe("");
  });
});
