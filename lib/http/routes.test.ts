import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { routeTable } from "../../scripts/route-table.mjs";
import { allowedAt, allowedMethods, matchRoute, routeEntries, routeMatcher, routePattern } from "./routes";

const table = routeEntries([
  { file: "app/api/[...path]/route.ts", methods: ["DELETE", "GET", "PATCH", "POST", "PUT"] },
  { file: "app/api/health/route.ts", methods: ["GET"] },
  { file: "app/api/agents/[agent_id]/runs/route.ts", methods: ["GET"] },
  { file: "app/api/agents/[agent_id]/runs/[run_id]/route.ts", methods: ["GET"] },
  { file: "app/api/agents/[agent_id]/runs/[run_id]/pause/route.ts", methods: ["POST"] },
  { file: "app/api/agents/webhook/[agent_id]/route.ts", methods: ["POST"] },
  { file: "app/api/agents/[agent_id]/upload/route.ts", methods: ["POST"] },
  {
    file: "app/api/agents/[agent_id]/upload/tus/[[...path]]/route.ts",
    methods: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST"],
  },
  { file: "app/(console)/things/route.ts", methods: ["GET"] },
]);

const patternOf = (p: string) => matchRoute(table, p)?.pattern;

describe("routePattern", () => {
  it("drops app/, route.ts and route groups", () => {
    expect(routePattern("app/api/health/route.ts")).toBe("/api/health");
    expect(routePattern("app/(console)/x/[id]/route.ts")).toBe("/x/[id]");
    expect(() => routePattern("lib/http/route.ts")).toThrow();
  });
});

describe("matchRoute", () => {
  it("prefers a static segment to a dynamic one, and both to a catch-all", () => {
    expect(patternOf("/api/health")).toBe("/api/health");
    expect(patternOf("/api/agents/webhook/agt_1")).toBe("/api/agents/webhook/[agent_id]");
    expect(patternOf("/api/agents/agt_1/runs")).toBe("/api/agents/[agent_id]/runs");
    expect(patternOf("/api/agents/agt_1/runs/run_1/pause")).toBe("/api/agents/[agent_id]/runs/[run_id]/pause");
    expect(patternOf("/api/agents/agt_1/runs/run_1/nope")).toBe("/api/[...path]");
    expect(patternOf("/api/nothing")).toBe("/api/[...path]");
    expect(patternOf("/things")).toBe("/things");
  });

  it("lets an optional catch-all match zero or more segments", () => {
    expect(patternOf("/api/agents/agt_1/upload/tus")).toBe("/api/agents/[agent_id]/upload/tus/[[...path]]");
    expect(patternOf("/api/agents/agt_1/upload/tus/abc")).toBe("/api/agents/[agent_id]/upload/tus/[[...path]]");
    expect(patternOf("/api/agents/agt_1/upload")).toBe("/api/agents/[agent_id]/upload");
  });

  it("matches decoded segments, and nothing for a path outside every route or a bad escape", () => {
    expect(patternOf("/api/%68ealth")).toBe("/api/health");
    expect(patternOf("/elsewhere")).toBeUndefined();
    expect(patternOf("/api/%E0%A4%A")).toBeUndefined();
  });
});

describe("allowedMethods", () => {
  it("adds HEAD for GET and always OPTIONS, sorted like Next's own Allow", () => {
    expect(allowedMethods(["GET"])).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods(["POST"])).toEqual(["OPTIONS", "POST"]);
    expect(allowedMethods(["PATCH", "GET", "DELETE"])).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
    expect(allowedMethods(["GET", "HEAD", "OPTIONS", "dynamic"])).toEqual(["GET", "HEAD", "OPTIONS"]);
  });
});

describe("allowedAt", () => {
  it("narrows the tus route by its URL: the collection creates, an upload's URL reads, continues, deletes", () => {
    const tus = {
      pattern: "/api/agents/[agent_id]/upload/tus/[[...path]]",
      methods: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST"],
    };
    expect(allowedAt(tus, "/api/agents/agt_1/upload/tus")).toEqual(["OPTIONS", "POST"]);
    expect(allowedAt(tus, "/api/agents/agt_1/upload/tus/upl_1")).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
    const health = { pattern: "/api/health", methods: ["GET"] };
    expect(allowedAt(health, "/api/health")).toEqual(["GET", "HEAD", "OPTIONS"]);
  });
});

describe("routeMatcher", () => {
  const fast = routeMatcher(table);

  it("agrees with matchRoute, query strings and repeated slashes included", () => {
    const paths = [
      "/",
      "/api",
      "/api/",
      "/api/health",
      "/api/health/",
      "/api/health?x=1",
      "/api//health",
      "/api/healthz",
      "/api/agents/webhook/agt_1",
      "/api/agents/webhook",
      "/api/agents/agt_1/runs",
      "/api/agents/agt_1/runs?status=failed&limit=5",
      "/api/agents/agt_1/runs/run_1",
      "/api/agents/agt_1/runs/run_1/pause",
      "/api/agents/agt_1/runs/run_1/nope",
      "/api/agents/agt_1/upload",
      "/api/agents/agt_1/upload/tus",
      "/api/agents/agt_1/upload/tus/",
      "/api/agents/agt_1/upload/tus/abc",
      "/api/agents/agt_1/upload/tus/abc/def",
      "/api/nothing/at/all",
      "/things",
      "/things/more",
      "/elsewhere",
      "/api/%68ealth",
      "/api/%E0%A4%A",
      "/api/health?next=%2Fx",
    ];
    for (const p of paths) expect(fast(p), p).toBe(matchRoute(table, p.split("?")[0]!)?.pattern);
  });

  it("agrees with matchRoute on the project's own routes, for paths made of their segments", async () => {
    const real = routeEntries(await routeTable(path.resolve(import.meta.dirname, "../..")));
    const match = routeMatcher(real);
    const words = [...new Set(real.flatMap((r) => r.pattern.split("/")).filter(Boolean))].map((w) =>
      w.startsWith("[") ? "x_1" : w,
    );
    const segment = fc.oneof(fc.constantFrom(...words, "", "%61", "nope"), fc.stringMatching(/^[a-z0-9_.-]{1,6}$/));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, query) => {
        const p = `/${segments.join("/")}${query ? "?a=1/b" : ""}`;
        expect(match(p), p).toBe(matchRoute(real, p.split("?")[0]!)?.pattern);
      }),
      { seed: 20260712, numRuns: 3000 },
    );
    for (const r of real)
      expect(match(r.pattern.replace(/\[\[?(\.\.\.)?[a-z_]+\]\]?/g, "x")), r.pattern).toBe(r.pattern);
  });
});
