// Cross-site requests from outside: a state-changing console request is accepted only when its
// Origin is the console's own origin (scheme, host and port), as lib/http/base-url.ts decides it:
// the Host over http, or with TRUST_PROXY=true the forwarded host and scheme.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../api/console";
import { ctx } from "../api/helpers";
import { authServer, consoleCall, consoleSignIn, PASSWORD, type AuthServer } from "./auth-helpers";

/** Access Keys of `orgId` on the organization API, which a console session calls with its cookie. */
const keysOf = (orgId: string) => `/api/v1/organizations/${orgId}/access-keys`;

let orgId: string;
const mint = (base: string, cookie: string, headers: Record<string, string>) =>
  consoleCall(base, cookie, "POST", keysOf(orgId), { name: "origin", permissions: ["agents:invoke"] }, headers);

describe("T-AUTH-5 cross-site requests: the console compares scheme, host and port of Origin", () => {
  let cookie: string;
  let base: string;

  beforeAll(async () => {
    base = ctx().baseUrl;
    orgId = ctx().orgA.organization_id;
    cookie = (await signIn("admin-a@example.com")).cookie;
  });

  it("on an http server, Origin https://host:port (same host and port, other scheme) mints nothing", async () => {
    const { host } = new URL(base);
    for (const origin of [`https://${host}`, `ws://${host}`, `http://${host.replace(/:\d+$/, ":1")}`, "null"]) {
      const res = await mint(base, cookie, { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.code, origin).toBe("cross_site_request");
    }
    const keys = await consoleCall(base, cookie, "GET", `${keysOf(orgId)}?limit=500`);
    expect(keys.body.access_keys.filter((k: { name: string }) => k.name === "origin")).toEqual([]);
  });

  it("the console's own origin is accepted, written as browsers write it", async () => {
    expect((await mint(base, cookie, { origin: base })).status).toBe(201);
    expect((await mint(base, cookie, { origin: base.toUpperCase() })).status).toBe(201);
  });

  it("a forged X-Forwarded-Proto or X-Forwarded-Host changes nothing without TRUST_PROXY", async () => {
    const { host } = new URL(base);
    const forged = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" };
    expect((await mint(base, cookie, { ...forged, origin: `https://${host}` })).status).toBe(403);
    expect((await mint(base, cookie, { ...forged, origin: "https://evil.example" })).status).toBe(403);
    expect((await mint(base, cookie, { ...forged, origin: base })).status).toBe(201);
  });
});

describe("T-AUTH-5 cross-site requests behind a trusted proxy (TRUST_PROXY=true): the forwarded origin", () => {
  let srv: AuthServer;
  const proxied = { "x-forwarded-host": "dash.example.test", "x-forwarded-proto": "https" };

  beforeAll(async () => {
    srv = await authServer("origin", [], { TRUST_PROXY: "true" });
    orgId = srv.org.organization_id!;
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it("accepts https://<forwarded host> and refuses the same host over http and the proxy's own address", async () => {
    const signedIn = await consoleSignIn(srv.base, srv.adminEmail, PASSWORD, {
      ...proxied,
      origin: "https://dash.example.test",
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    // Under https the cookie is the __Secure- one.
    expect(signedIn.session).toMatch(/^__Secure-authjs\.session-token=/);
    const cookie = signedIn.session!;
    expect((await mint(srv.base, cookie, { ...proxied, origin: "https://dash.example.test" })).status).toBe(201);
    for (const origin of ["http://dash.example.test", "https://dash.example.test:8443", srv.base]) {
      const res = await mint(srv.base, cookie, { ...proxied, origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.code).toBe("cross_site_request");
    }
  });
});
