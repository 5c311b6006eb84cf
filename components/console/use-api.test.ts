// The console's typed calls (use-api.ts): the URL, method and body each call sends, and the cache
// keys reads are kept under and writes invalidate by.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setConsoleOrganization } from "./api";
import { apiKey, request, urlOf } from "./use-api";

beforeAll(() => setConsoleOrganization("org_A/1"));
afterEach(() => vi.unstubAllGlobals());

describe("urlOf", () => {
  it("fills in the organization, the path's parameters (encoded) and the query's fields that say something", () => {
    expect(
      urlOf("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]", {
        params: { agent_id: "agt 1", version: 3 },
      }),
    ).toBe("/api/v1/organizations/org_A%2F1/agents/agt%201/versions/3");
    expect(
      urlOf("GET /api/v1/organizations/[org_id]/runs", {
        query: { status: "", agent_id: undefined, limit: 20, has_error: true, cursor: null },
      }),
    ).toBe("/api/v1/organizations/org_A%2F1/runs?limit=20&has_error=true");
    expect(urlOf("GET /api/console/me", {})).toBe("/api/console/me");
  });

  it("refuses a call without a parameter its path needs", () => {
    expect(() => urlOf("GET /api/v1/organizations/[org_id]/runs/[run_id]", { params: { run_id: "" } })).toThrow(
      "no run_id given",
    );
  });
});

describe("apiKey", () => {
  it("is the path after the organization with its parameters, then the query when it says something", () => {
    const route = "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions";
    expect(apiKey(route, { params: { agent_id: "agt_1" }, query: { limit: 20, cursor: "" } })).toEqual([
      "agents",
      "agt_1",
      "versions",
      { limit: "20" },
    ]);
    expect(apiKey(route, { params: { agent_id: "agt_1" } })).toEqual(["agents", "agt_1", "versions"]);
    expect(apiKey("GET /api/console/me")).toEqual(["console", "me"]);
  });

  it("stops at the first parameter not given: the prefix of everything below it", () => {
    const agent = apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]", { params: { agent_id: "agt_1" } });
    const versions = apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions", {
      params: { agent_id: "agt_1" },
      query: { limit: 5 },
    });
    expect(versions.slice(0, agent.length)).toEqual(agent);
    expect(apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions")).toEqual(["agents"]);
  });
});

describe("request", () => {
  const answering = (status: number, body: unknown) => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    });
    return calls;
  };

  it("sends a write's method and JSON body to the route's URL, and answers the JSON", async () => {
    const calls = answering(200, { name: "openai", hint: "abcd" });
    const answer = await request("PUT /api/v1/organizations/[org_id]/secrets/[name]", {
      params: { name: "openai" },
      body: { value: "sk-1" },
    });
    expect(answer).toEqual({ name: "openai", hint: "abcd" });
    expect(calls.map((c) => [c.url, c.init.method, c.init.body])).toEqual([
      ["/api/v1/organizations/org_A%2F1/secrets/openai", "PUT", JSON.stringify({ value: "sk-1" })],
    ]);
  });

  it("sends {} for a POST without a body and nothing for a DELETE", async () => {
    const calls = answering(200, {});
    await request("POST /api/v1/organizations/[org_id]/webhook-secret", {});
    await request("DELETE /api/v1/organizations/[org_id]/secrets/[name]", { params: { name: "x" } });
    expect(calls.map((c) => [c.init.method, c.init.body])).toEqual([
      ["POST", "{}"],
      ["DELETE", undefined],
    ]);
  });

  it("throws the envelope's code, message and field errors", async () => {
    answering(400, {
      error: {
        code: "invalid_request",
        message: "value: Required",
        request_id: "req_1",
        details: { fields: [{ field: "value", message: "Required" }] },
      },
    });
    await expect(
      request("PUT /api/v1/organizations/[org_id]/secrets/[name]", { params: { name: "x" }, body: { value: "" } }),
    ).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
      requestId: "req_1",
      fields: { value: "Required" },
    });
  });
});
