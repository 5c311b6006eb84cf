// The role matrix of the console API, like the Access Key auth matrix: every console
// route x {signed out, cross-site, support, admin, admin of another organization}. The server
// decides on every route; hiding a button is not the protection.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, invite, signIn, type ConsoleSession } from "../api/console";
import { CONSOLE_ROUTES, REQUESTS, type ConsoleFixtures, type ConsoleRoute } from "../api/console-routes";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey, SIMPLE_WORKFLOW } from "../api/helpers";

let adminA: ConsoleSession;
let supportA: ConsoleSession;
let adminB: ConsoleSession;
let f: ConsoleFixtures;

const uniqueEmail = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  adminA = await signIn("admin-a@example.com");
  supportA = await signIn("support-a@example.com");
  adminB = await signIn("admin-b@example.com");
  const conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  const workflow = (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id;
  const key = (await mintKey(orgA)).key;
  // The reply's completion callback goes to an address that never answers: it stays in the log.
  const trigger = await call("POST", `/api/agents/webhook/${conversational}`, {
    auth: key,
    body: { message: "hi", callback_url: "https://callbacks.invalid/hook" },
  });
  const run = await call("POST", `/api/agents/webhook/${workflow}`, { auth: key, body: { rows: [{ a: 1 }] } });
  const members = await adminA.call("GET", "/api/console/members");
  const deliveries = await adminA.call("GET", `/api/console/deliveries?agent_id=${conversational}`);
  expect(deliveries.body.data, "the trigger's completion callback is logged").toHaveLength(1);
  f = {
    orgA: orgA.organization_id,
    orgB: orgB.organization_id,
    conversational,
    workflow,
    sessionId: trigger.body.session_id,
    runId: run.body.run_id,
    deliveryId: deliveries.body.data[0].id,
    supportUserId: members.body.members.find((m: any) => m.email === "support-a@example.com").user_id,
    freshKey: async () => (await mintKey(orgA)).key_id,
    freshAgent: async () => (await createAgent(orgA, ECHO_AGENT)).agent_id,
    freshSecret: async () => {
      const name = `fresh-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const res = await call("PUT", `/api/v1/organizations/${orgA.organization_id}/secrets/${name}`, {
        auth: orgA.user_token,
        body: { value: "fresh-secret-value" },
      });
      expect(res.status).toBe(201);
      return name;
    },
    freshMember: () => addMember(adminA, uniqueEmail("gone")),
    freshInvitation: async () => (await invite(adminA, uniqueEmail("revoked"))).invitation_id,
  };
});

async function send(route: ConsoleRoute, session?: ConsoleSession, headers?: Record<string, string>) {
  const p = await route.path(f);
  const body = route.body?.(f);
  if (!session) {
    const base = ctx().baseUrl;
    return call(route.method, p, { body, headers: { origin: base, ...headers } });
  }
  return session.call(route.method, p, body, headers);
}

const label = (r: Pick<ConsoleRoute, "method" | "pattern">) => `${r.method} ${r.pattern}`;
const isWrite = (r: ConsoleRoute) => r.method !== "GET";

describe.each(CONSOLE_ROUTES)("T-TENANT-2 console route $method $pattern", (route) => {
  it("signed out: 401 unauthorized (sign-in and sign-out excepted)", async () => {
    const res = await send(route);
    if (route.public) expect(res.body?.error?.code ?? "none", label(route)).not.toBe("unauthorized");
    else expectError(res, 401, "unauthorized");
  });

  it.runIf(isWrite(route))("from another site: 403 cross_site_request", async () => {
    expectError(await send(route, adminA, { origin: "https://evil.example" }), 403, "cross_site_request");
    expectError(await send(route, adminA, { origin: "" }), 403, "cross_site_request");
  });

  it.skipIf(route.public || route.endsSessions)("support member: 403 on admin writes, allowed otherwise", async () => {
    const res = await send(route, supportA);
    if (route.admin) expectError(res, 403, "forbidden");
    else expect([401, 403, 500], `${label(route)}: ${res.status} ${res.text}`).not.toContain(res.status);
  });

  it.skipIf(route.public || route.endsSessions)("admin: allowed", async () => {
    const res = await send(route, adminA);
    expect([401, 403, 500], `${label(route)}: ${res.status} ${res.text}`).not.toContain(res.status);
  });

  it.skipIf(route.public || route.endsSessions)(
    "admin of another organization: 404, or none of org A's data",
    async () => {
      const res = await send(route, adminB);
      if (route.otherOrg) {
        expectError(res, 404, route.otherOrg);
        return;
      }
      expect([401, 403, 500], `${label(route)}: ${res.status} ${res.text}`).not.toContain(res.status);
      for (const id of [f.orgA, f.conversational, f.workflow, f.sessionId, f.runId, f.deliveryId]) {
        expect(res.text, `${label(route)} leaks ${id}`).not.toContain(id);
      }
    },
  );
});

describe("console route registry", () => {
  it("has a request for every console route contract and none for a route that does not exist", () => {
    expect(CONSOLE_ROUTES.length).toBeGreaterThan(20);
    expect(REQUESTS.map(label).sort()).toEqual(CONSOLE_ROUTES.map(label).sort());
  });
});
