import { describe, expect, it } from "vitest";
import { allowedMethods, matchRoute, routeEntries, routePattern } from "./routes";

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
  { file: "app/(dashboard)/things/route.ts", methods: ["GET"] },
]);

const patternOf = (p: string) => matchRoute(table, p)?.pattern;

describe("routePattern", () => {
  it("drops app/, route.ts and route groups", () => {
    expect(routePattern("app/api/health/route.ts")).toBe("/api/health");
    expect(routePattern("app/(dashboard)/x/[id]/route.ts")).toBe("/x/[id]");
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
