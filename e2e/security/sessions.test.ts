// Console sessions from outside: a sign-out ends the session on the server, so a copy of the
// cookie taken before it (a shared computer, a stolen cookie, a log) is worth nothing afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authJsCsrf,
  authJsSignIn,
  authServer,
  consoleCall,
  consoleSignIn,
  PASSWORD,
  raw,
  type AuthServer,
} from "./auth-helpers";

const ALICE = "alice@example.com";
const BOB = "bob@example.com";

let srv: AuthServer;

beforeAll(async () => {
  srv = await authServer("sessions", [ALICE, BOB]);
});

afterAll(async () => {
  await srv?.stop();
});

async function signedIn(email: string) {
  const res = await consoleSignIn(srv.base, email, PASSWORD);
  expect(res.status).toBe(200);
  return res.session!;
}

const me = async (cookie: string) => (await consoleCall(srv.base, cookie, "GET", "/api/console/me")).status;

/** Every way the old cookie could still be used: console reads and writes, pages, Auth.js's session. */
async function expectDead(cookie: string) {
  expect(await me(cookie)).toBe(401);
  const write = await consoleCall(
    srv.base,
    cookie,
    "POST",
    `/api/v1/organizations/${srv.org.organization_id}/access-keys`,
    {
      name: "replayed",
      permissions: ["agents:invoke"],
    },
  );
  expect(write.status).toBe(401);
  const page = await raw(srv.base, "GET", "/keys", { headers: { cookie } });
  expect(page.status).toBe(307);
  expect(page.location).toBe("/login?next=%2Fkeys");
  const session = await raw(srv.base, "GET", "/api/auth/session", { headers: { cookie } });
  expect(session.status).toBe(200);
  expect(session.json()).toBeNull();
}

describe("T-AUTH-4 sign-out ends the session on the server", () => {
  it("a cookie replayed after the console's sign-out is refused everywhere", async () => {
    const cookie = await signedIn(ALICE);
    expect(await me(cookie)).toBe(200);
    const live = (await raw(srv.base, "GET", "/api/auth/session", { headers: { cookie } })).json();
    expect(live.user.email).toBe(ALICE);
    // The stored session's ids stay on the server.
    expect(Object.keys(live).sort()).toEqual(["expires", "user"]);
    const out = await consoleCall(srv.base, cookie, "POST", "/api/console/auth/sign-out");
    expect(out.status).toBe(200);
    await expectDead(cookie);
  });

  it("a cookie replayed after Auth.js's own sign-out endpoint is refused", async () => {
    const cookie = await signedIn(ALICE);
    const csrf = await authJsCsrf(srv.base);
    const out = await raw(srv.base, "POST", "/api/auth/signout", {
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${cookie}; ${csrf.cookie}` },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken }).toString(),
    });
    expect(out.status).toBe(302);
    await expectDead(cookie);
  });

  it("a session from Auth.js's credentials endpoint is a stored session too", async () => {
    const viaAuthJs = await authJsSignIn(srv.base, ALICE, PASSWORD);
    expect(viaAuthJs.session).toBeDefined();
    expect(await me(viaAuthJs.session!)).toBe(200);
    expect((await consoleCall(srv.base, viaAuthJs.session!, "POST", "/api/console/auth/sign-out")).status).toBe(200);
    await expectDead(viaAuthJs.session!);
  });

  it("signing out ends that session only: the user's other sessions go on", async () => {
    const first = await signedIn(ALICE);
    const second = await signedIn(ALICE);
    expect((await consoleCall(srv.base, first, "POST", "/api/console/auth/sign-out")).status).toBe(200);
    expect(await me(first)).toBe(401);
    expect(await me(second)).toBe(200);
  });

  it("sign out everywhere ends every session of the user and no one else's", async () => {
    const here = await signedIn(BOB);
    const elsewhere = (await authJsSignIn(srv.base, BOB, PASSWORD)).session!;
    const someoneElse = await signedIn(ALICE);
    for (const c of [here, elsewhere, someoneElse]) expect(await me(c)).toBe(200);
    const out = await consoleCall(srv.base, here, "POST", "/api/console/auth/sign-out-everywhere");
    expect(out.status).toBe(200);
    await expectDead(here);
    await expectDead(elsewhere);
    expect(await me(someoneElse)).toBe(200);
    // Signing in again works as before.
    expect(await me(await signedIn(BOB))).toBe(200);
  });
});
