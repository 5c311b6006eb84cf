// Management API (docs/api.md, Management API): user-token auth, access keys, agents, roles, tenancy.
import { describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW, call, createAgent, ctx, expectError, listAll, mintKey } from "./helpers";

const keysPath = (org: string) => `/api/v1/organizations/${org}/access-keys`;
const agentsPath = (org: string) => `/api/v1/organizations/${org}/agents`;

describe("management API authentication", () => {
  it.each([
    ["no token", undefined],
    ["wrong scheme", "Basic dXNlcjpwYXNz"],
    ["unknown token", `Bearer ut_${"a".repeat(43)}`],
    ["malformed token", "Bearer nonsense"],
  ])("refuses %s with 401 unauthorized", async (_label, auth) => {
    const { orgA } = ctx();
    expectError(await call("GET", keysPath(orgA.organization_id), { auth }), 401, "unauthorized");
  });

  it("refuses an Access Key in place of a user token (user token only)", async () => {
    const { orgA } = ctx();
    const key = await mintKey(orgA);
    expectError(await call("GET", keysPath(orgA.organization_id), { auth: key.key }), 401, "unauthorized");
  });

  it("answers 404 to a user token of another organization, on every management route", async () => {
    const { orgA, orgB } = ctx();
    const agent = await createAgent(orgA);
    const key = await mintKey(orgA);
    const b = { auth: orgB.user_token };
    const org = orgA.organization_id;
    const results = [
      await call("GET", keysPath(org), b),
      await call("POST", keysPath(org), { ...b, body: { name: "x", permissions: ["agents:invoke"] } }),
      await call("DELETE", `${keysPath(org)}/${key.key_id}`, b),
      await call("GET", agentsPath(org), b),
      await call("POST", agentsPath(org), { ...b, body: ECHO_AGENT }),
      await call("GET", `${agentsPath(org)}/${agent.agent_id}`, b),
      await call("PATCH", `${agentsPath(org)}/${agent.agent_id}`, { ...b, body: { name: "stolen" } }),
    ];
    for (const res of results) expectError(res, 404, "organization_not_found");
    // Nothing changed: the key still works for its owner's listing, the agent kept its name.
    const still = await call("GET", `${agentsPath(org)}/${agent.agent_id}`, { auth: orgA.user_token });
    expect(still.body.name).toBe(ECHO_AGENT.name);
  });

  it("org A's token cannot reach org B's key by id through its own organization path", async () => {
    const { orgA, orgB } = ctx();
    const keyB = await mintKey(orgB);
    expectError(
      await call("DELETE", `${keysPath(orgA.organization_id)}/${keyB.key_id}`, { auth: orgA.user_token }),
      404,
      "access_key_not_found",
    );
    const listB = await listAll(keysPath(orgB.organization_id), "access_keys", orgB.user_token);
    expect(listB.rows.find((k: any) => k.key_id === keyB.key_id).revoked_at).toBeNull();
  });
});

describe("roles", () => {
  it("a support member can read keys and agents but cannot mint, revoke, create or update (403 forbidden)", async () => {
    const { orgA, supportA } = ctx();
    const org = orgA.organization_id;
    const s = { auth: supportA.user_token };
    const key = await mintKey(orgA);
    const agent = await createAgent(orgA);
    expect((await call("GET", keysPath(org), s)).status).toBe(200);
    expect((await call("GET", agentsPath(org), s)).status).toBe(200);
    expect((await call("GET", `${agentsPath(org)}/${agent.agent_id}`, s)).status).toBe(200);
    expectError(await call("POST", keysPath(org), { ...s, body: { name: "x" } }), 403, "forbidden");
    expectError(await call("DELETE", `${keysPath(org)}/${key.key_id}`, s), 403, "forbidden");
    expectError(await call("POST", agentsPath(org), { ...s, body: ECHO_AGENT }), 403, "forbidden");
    expectError(
      await call("PATCH", `${agentsPath(org)}/${agent.agent_id}`, { ...s, body: { name: "n" } }),
      403,
      "forbidden",
    );
  });
});

describe("access keys", () => {
  it("mints with 201, returns the raw key once, lists without secrets", async () => {
    const { orgA } = ctx();
    const res = await call("POST", keysPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { name: "billing-integration", permissions: ["agents:invoke"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organization_id: orgA.organization_id,
      name: "billing-integration",
      permissions: ["agents:invoke"],
      last_used_at: null,
      revoked_at: null,
    });
    expect(res.body.key).toMatch(/^ak_[0-9A-Za-z]{43}$/);
    expect(res.body.key_id).toMatch(/^key_/);
    expect(res.body.key.startsWith(res.body.start)).toBe(true);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();

    const list = await listAll(keysPath(orgA.organization_id), "access_keys", orgA.user_token);
    const listed = list.rows.find((k: any) => k.key_id === res.body.key_id);
    expect(listed).toMatchObject({ name: "billing-integration", start: res.body.start });
    expect(listed).not.toHaveProperty("key");
    expect(list.text).not.toContain(res.body.key);
    expect(list.text).not.toMatch(/key_hash|[0-9a-f]{64}/);
  });

  it("validates the body: name required, permissions known", async () => {
    const { orgA } = ctx();
    const a = { auth: orgA.user_token };
    const noName = await call("POST", keysPath(orgA.organization_id), {
      ...a,
      body: { permissions: ["agents:invoke"] },
    });
    expectError(noName, 400, "invalid_request");
    expect(noName.body.error.details.fields[0].field).toBe("name");
    const badPerm = await call("POST", keysPath(orgA.organization_id), {
      ...a,
      body: { name: "x", permissions: ["root"] },
    });
    expectError(badPerm, 400, "invalid_request");
    expect(badPerm.body.error.details.fields[0].field).toBe("permissions.0");
    expectError(await call("DELETE", `${keysPath(orgA.organization_id)}/key_nope`, a), 404, "access_key_not_found");
  });

  it("revokes with the record and revoked_at; revoking again is idempotent", async () => {
    const { orgA } = ctx();
    const key = await mintKey(orgA);
    const res = await call("DELETE", `${keysPath(orgA.organization_id)}/${key.key_id}`, { auth: orgA.user_token });
    expect(res.status).toBe(200);
    expect(res.body.key_id).toBe(key.key_id);
    expect(Date.parse(res.body.revoked_at)).not.toBeNaN();
    expect(res.body).not.toHaveProperty("key");
    const again = await call("DELETE", `${keysPath(orgA.organization_id)}/${key.key_id}`, { auth: orgA.user_token });
    expect(again.body.revoked_at).toBe(res.body.revoked_at);
  });
});

describe("agents", () => {
  it("creates, gets, lists and updates an agent; the id field is agent_id", async () => {
    const { orgA } = ctx();
    const a = { auth: orgA.user_token };
    const created = await createAgent(orgA, { ...ECHO_AGENT, name: "crud" });
    expect(created).toMatchObject({
      organization_id: orgA.organization_id,
      project_id: orgA.project_id,
      kind: "conversational",
    });
    expect(created.agent_id).toMatch(/^agt_/);
    const got = await call("GET", `${agentsPath(orgA.organization_id)}/${created.agent_id}`, a);
    expect(got.body).toMatchObject({
      agent_id: created.agent_id,
      name: "crud",
      runtime: { type: "echo", delay_ms: 0 },
    });
    const list = await listAll(agentsPath(orgA.organization_id), "agents", orgA.user_token);
    expect(list.rows.map((x: any) => x.agent_id)).toContain(created.agent_id);
    const patched = await call("PATCH", `${agentsPath(orgA.organization_id)}/${created.agent_id}`, {
      ...a,
      body: { name: "renamed", runtime: { type: "echo", delay_ms: 5 }, publish: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: "renamed",
      runtime: { type: "echo", delay_ms: 5 },
      published_version: 2,
    });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse((created as any).updated_at));
  });

  it("creates a workflow agent with its definition", async () => {
    const { orgA } = ctx();
    const wf = await createAgent(orgA, SIMPLE_WORKFLOW);
    expect(wf.kind).toBe("workflow");
  });

  it.each([
    ["missing name", { kind: "conversational", runtime: { type: "echo" } }, "name"],
    ["unknown kind", { ...ECHO_AGENT, kind: "robot" }, "kind"],
    ["unknown runtime", { ...ECHO_AGENT, runtime: { type: "magic" } }, "runtime.type"],
    [
      "openai runtime without model",
      { ...ECHO_AGENT, runtime: { type: "openai", base_url: "http://127.0.0.1:1/v1" } },
      "runtime.model",
    ],
    ["workflow agent without workflow", { ...SIMPLE_WORKFLOW, workflow: undefined }, "workflow"],
    ["conversational agent with a workflow", { ...ECHO_AGENT, workflow: SIMPLE_WORKFLOW.workflow }, "workflow"],
    [
      "JSONata syntax error, named by step",
      {
        ...SIMPLE_WORKFLOW,
        workflow: { ...SIMPLE_WORKFLOW.workflow, steps: [{ id: "t", type: "transform", expression: "$merge([" }] },
      },
      "workflow.steps.0.expression",
    ],
    ["unknown project", { ...ECHO_AGENT, project_id: "proj_nope" }, "project_id"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, body, field) => {
    const { orgA } = ctx();
    const res = await call("POST", agentsPath(orgA.organization_id), { auth: orgA.user_token, body });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields.map((f: any) => f.field)).toContain(field);
  });

  it("refuses to change an agent's kind, and 404s an unknown agent", async () => {
    const { orgA } = ctx();
    const created = await createAgent(orgA);
    const res = await call("PATCH", `${agentsPath(orgA.organization_id)}/${created.agent_id}`, {
      auth: orgA.user_token,
      body: { kind: "workflow" },
    });
    expectError(res, 400, "invalid_request");
    expectError(
      await call("GET", `${agentsPath(orgA.organization_id)}/agt_nope`, { auth: orgA.user_token }),
      404,
      "agent_not_found",
    );
  });
});
