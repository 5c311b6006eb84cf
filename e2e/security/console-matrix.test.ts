// The role matrix of the console API, like the Access Key auth matrix: every console
// route x {signed out, cross-site, support, admin, admin of another organization}. The server
// decides on every route; hiding a button is not the protection.
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, type ConsoleSession } from "../api/console";
import {
  CONSOLE_ROUTES,
  consoleFixtures,
  REQUESTS,
  type ConsoleFixtures,
  type ConsoleRoute,
} from "../api/console-routes";
import { call, ctx, expectError } from "../api/helpers";

let adminA: ConsoleSession;
let supportA: ConsoleSession;
let adminB: ConsoleSession;
let f: ConsoleFixtures;

beforeAll(async () => {
  adminA = await signIn("admin-a@example.com");
  supportA = await signIn("support-a@example.com");
  adminB = await signIn("admin-b@example.com");
  f = await consoleFixtures(adminA);
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
    // What belongs to a browser session (issue 31): sign-in, sign-out (here, everywhere), me, the
    // organization switch, accepting an invitation, the change feed.
    expect(CONSOLE_ROUTES.length).toBeGreaterThan(5);
    expect(REQUESTS.map(label).sort()).toEqual(CONSOLE_ROUTES.map(label).sort());
  });
});
