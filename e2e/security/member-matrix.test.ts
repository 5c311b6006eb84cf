// The role matrix of the organization API (/api/v1/organizations/[org_id]/...): every route x
// {a user token, the console's session cookie} x {nobody, support, admin, admin of another
// organization}, plus what only the cookie needs (the console's own Origin on every write) and what
// decides when both are sent (the bearer). docs/api.md, Management API; docs/decisions.md, "One
// member principal for the organization API".
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, type ConsoleSession } from "../api/console";
import { consoleFixtures, type ConsoleFixtures } from "../api/console-routes";
import { call, ctx, expectError, type ApiResponse } from "../api/helpers";
import { MEMBER_REQUEST_KEYS, MEMBER_ROUTES, type MemberRoute } from "../api/member-routes";

/** A caller of the organization API: a user token, or a signed-in browser. */
interface Caller {
  token: string;
  session: ConsoleSession;
}

let adminA: Caller;
let supportA: Caller;
let adminB: Caller;
let f: ConsoleFixtures;

beforeAll(async () => {
  const { orgA, orgB, supportA: support } = ctx();
  adminA = { token: orgA.user_token, session: await signIn("admin-a@example.com") };
  supportA = { token: support.user_token, session: await signIn("support-a@example.com") };
  adminB = { token: orgB.user_token, session: await signIn("admin-b@example.com") };
  f = await consoleFixtures(adminA.session);
});

type Way = "token" | "cookie";

async function target(route: MemberRoute) {
  return { path: `/api/v1/organizations/${f.orgA}${await route.path(f)}`, body: route.body?.(f) };
}

/** `route` called by `who` one way; `headers` over the way's own (an Origin for the cookie). */
async function send(route: MemberRoute, who: Caller, way: Way, headers?: Record<string, string>): Promise<ApiResponse> {
  const { path, body } = await target(route);
  if (way === "cookie") return who.session.call(route.method, path, body, headers);
  return call(route.method, path, { auth: who.token, body, headers });
}

const label = (r: MemberRoute) => `${r.method} ${r.pattern}`;
const isWrite = (r: MemberRoute) => r.method !== "GET";
const allowed = (route: MemberRoute, res: ApiResponse) =>
  expect([401, 403, 404, 500], `${label(route)}: ${res.status} ${res.text}`).not.toContain(res.status);

describe.each(MEMBER_ROUTES)("T-TENANT-3 organization API $method $pattern", (route) => {
  it("with neither a token nor a session: 401 unauthorized", async () => {
    const { path, body } = await target(route);
    expectError(await call(route.method, path, { body, headers: { origin: ctx().baseUrl } }), 401, "unauthorized");
    expectError(await call(route.method, path, { body, auth: `ut_${"x".repeat(43)}` }), 401, "unauthorized");
  });

  it.runIf(isWrite(route))(
    "a session cookie from another site, or with no Origin: 403 cross_site_request",
    async () => {
      expectError(await send(route, adminA, "cookie", { origin: "https://evil.example" }), 403, "cross_site_request");
      expectError(await send(route, adminA, "cookie", { origin: "" }), 403, "cross_site_request");
    },
  );

  it.runIf(isWrite(route))("a user token needs no Origin, whatever site the request says it comes from", async () => {
    allowed(route, await send(route, adminA, "token", { origin: "https://evil.example" }));
  });

  it.each(["token", "cookie"] as const)("%s, support member: 403 on admin routes, allowed otherwise", async (way) => {
    const res = await send(route, supportA, way);
    if (route.admin) expectError(res, 403, "forbidden");
    else if (route.notSupports) expectError(res, ...route.notSupports);
    else allowed(route, res);
  });

  it.each(["token", "cookie"] as const)("%s, admin: allowed", async (way) => {
    allowed(route, await send(route, adminA, way));
  });

  it.each(["token", "cookie"] as const)(
    "%s, admin of another organization naming this one: 404 organization_not_found",
    async (way) => {
      expectError(await send(route, adminB, way), 404, "organization_not_found");
    },
  );

  it("a bearer and a cookie: the bearer decides", async () => {
    const { path, body } = await target(route);
    const both = (token: string) =>
      call(route.method, path, {
        auth: token,
        body,
        headers: { cookie: adminA.session.cookie, origin: ctx().baseUrl },
      });
    expectError(await both(`ut_${"x".repeat(43)}`), 401, "unauthorized");
    if (route.admin) expectError(await both(supportA.token), 403, "forbidden");
    expectError(await both(adminB.token), 404, "organization_not_found");
  });
});

describe("organization API route registry", () => {
  it("has a request for every member route contract and none for a route that does not exist", () => {
    expect(MEMBER_ROUTES.length).toBeGreaterThan(30);
    expect([...MEMBER_REQUEST_KEYS].sort()).toEqual(MEMBER_ROUTES.map(label).sort());
  });
});
