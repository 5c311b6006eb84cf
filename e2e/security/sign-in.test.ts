// Sign-in from outside: Auth.js's own credentials endpoint and the console's sign-in route check
// the password in one place, with one lockout, one failure record and one audit trail. The users
// are members of a server of this file's own, so that no lockout reaches the shared suites.
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

const USERS = {
  authJsFirst: "authjs-first@example.com",
  consoleFirst: "console-first@example.com",
  mixed: "mixed@example.com",
  address: "address@example.com",
  cleared: "cleared@example.com",
  parallel: "parallel@example.com",
} as const;

let srv: AuthServer;
let adminCookie: string;

beforeAll(async () => {
  srv = await authServer("signin", Object.values(USERS));
  const signedIn = await consoleSignIn(srv.base, srv.adminEmail, PASSWORD);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.session!;
});

afterAll(async () => {
  await srv?.stop();
});

/** The audit log of the server's organization (organization API, the admin's session cookie). */
const auditPath = () => `/api/v1/organizations/${srv.org.organization_id}/audit`;

/** The sign-in audit rows of one user, oldest first. */
async function signInAudit(email: string) {
  const res = await consoleCall(srv.base, adminCookie, "GET", `${auditPath()}?action=auth.*&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body.events as { action: string; actor: { label: string }; data: { ip?: string } }[])
    .filter((e) => e.actor.label === email)
    .map((e) => e.action)
    .reverse();
}

const wrong = (n: number) => `wrong password ${n}`;

/** Auth.js's answer to a refused credentials post: back to the login page with the reason, no session. */
function expectRefused(res: Awaited<ReturnType<typeof authJsSignIn>>, code: "credentials" | "locked") {
  expect(res.status, res.text).toBe(302);
  expect(res.session, "no session cookie").toBeUndefined();
  const location = new URL(res.location!, srv.base);
  expect(location.origin).toBe(srv.base);
  expect(location.pathname).toBe("/login");
  expect(location.searchParams.get("error")).toBe("CredentialsSignin");
  expect(location.searchParams.get("code")).toBe(code);
}

describe("T-AUTH-1 one password check: Auth.js's credentials endpoint and the console share it", () => {
  it("the right password through Auth.js's endpoint gives a working session and an audit row", async () => {
    const res = await authJsSignIn(srv.base, USERS.cleared, PASSWORD);
    expect(res.status, res.text).toBe(302);
    expect(res.session).toBeDefined();
    const me = await consoleCall(srv.base, res.session!, "GET", "/api/console/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(USERS.cleared);
    expect(await signInAudit(USERS.cleared)).toEqual(["auth.sign_in"]);
  });

  it("a success on either path clears the failures counted on both", async () => {
    const email = USERS.cleared;
    for (let n = 0; n < 4; n++) expectRefused(await authJsSignIn(srv.base, email, wrong(n)), "credentials");
    expect((await consoleSignIn(srv.base, email, PASSWORD)).status).toBe(200);
    for (let n = 0; n < 4; n++) expect((await consoleSignIn(srv.base, email, wrong(n))).status).toBe(401);
    const viaAuthJs = await authJsSignIn(srv.base, email, PASSWORD);
    expect(viaAuthJs.session).toBeDefined();
    // Four more failures after that success: still not locked out.
    for (let n = 0; n < 4; n++) expectRefused(await authJsSignIn(srv.base, email, wrong(n)), "credentials");
    expect((await consoleSignIn(srv.base, email, PASSWORD)).status).toBe(200);
  });
});

describe("T-AUTH-2 sign-in lockout on every path", () => {
  it("twenty wrong passwords through Auth.js's endpoint are counted: the pair is locked on both paths", async () => {
    const email = USERS.authJsFirst;
    for (let n = 0; n < 4; n++) expectRefused(await authJsSignIn(srv.base, email, wrong(n)), "credentials");
    for (let n = 4; n < 20; n++) expectRefused(await authJsSignIn(srv.base, email, wrong(n)), "locked");

    const viaConsole = await consoleSignIn(srv.base, email, PASSWORD);
    expect(viaConsole.status).toBe(429);
    expect(viaConsole.body.error.code).toBe("rate_limited");
    expect(viaConsole.session).toBeUndefined();
    const retryAfter = Number(viaConsole.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(viaConsole.body.error.details.retry_after_seconds).toBe(retryAfter);

    expectRefused(await authJsSignIn(srv.base, email, PASSWORD), "locked");
    // Five failures (the fifth locked the pair), then nothing while it is locked: refused
    // attempts are not failures, and the right password did not sign in.
    expect(await signInAudit(email)).toEqual([...Array(5).fill("auth.sign_in_failed"), "auth.sign_in_locked"]);
  });

  it("five failures through the console lock Auth.js's endpoint too, even for the right password", async () => {
    const email = USERS.consoleFirst;
    const statuses = [];
    for (let n = 0; n < 5; n++) statuses.push((await consoleSignIn(srv.base, email, wrong(n))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expectRefused(await authJsSignIn(srv.base, email, PASSWORD), "locked");
    expect((await consoleSignIn(srv.base, email, PASSWORD)).status).toBe(429);
    expect(await signInAudit(email)).toEqual([...Array(5).fill("auth.sign_in_failed"), "auth.sign_in_locked"]);
  });

  it("failures on the two paths add up", async () => {
    const email = USERS.mixed;
    expectRefused(await authJsSignIn(srv.base, email, wrong(1)), "credentials");
    expect((await consoleSignIn(srv.base, email, wrong(2))).status).toBe(401);
    expectRefused(await authJsSignIn(srv.base, email, wrong(3)), "credentials");
    expect((await consoleSignIn(srv.base, email, wrong(4))).status).toBe(401);
    expectRefused(await authJsSignIn(srv.base, email, wrong(5)), "locked");
    expect((await consoleSignIn(srv.base, email, PASSWORD)).status).toBe(429);
  });

  it("thirty guesses at once, on both paths, get at most five passwords checked", async () => {
    const email = USERS.parallel;
    const tokens = await Promise.all(Array.from({ length: 15 }, () => authJsCsrf(srv.base)));
    const [viaAuthJs, viaConsole] = await Promise.all([
      Promise.all(tokens.map((csrf, n) => authJsSignIn(srv.base, email, wrong(n), { csrf }))),
      Promise.all(Array.from({ length: 15 }, (_, n) => consoleSignIn(srv.base, email, wrong(100 + n)))),
    ]);
    for (const res of viaAuthJs) {
      expect(res.session).toBeUndefined();
      expect(["credentials", "locked"]).toContain(new URL(res.location!, srv.base).searchParams.get("code"));
    }
    for (const res of viaConsole) expect([401, 429]).toContain(res.status);
    // However the attempts interleaved, every one past the fifth recorded failure was refused
    // before its password was looked at (each is recorded before it is checked).
    const failed = async () => (await signInAudit(email)).filter((a) => a === "auth.sign_in_failed").length;
    const afterBurst = await failed();
    expect(afterBurst).toBeLessThanOrEqual(5);
    // One at a time from here: the pair locks exactly at the fifth failure.
    for (let n = afterBurst; n < 4; n++)
      expect((await consoleSignIn(srv.base, email, wrong(200 + n))).status).toBe(401);
    if (afterBurst < 5) expect((await consoleSignIn(srv.base, email, wrong(300))).status).toBe(429);
    expect(await failed()).toBe(5);
    expect((await signInAudit(email)).filter((a) => a === "auth.sign_in_locked").length).toBeGreaterThanOrEqual(1);
    expect((await consoleSignIn(srv.base, email, PASSWORD)).status).toBe(429);
  });

  it("an unknown email is locked the same way (no hint that it does not exist)", async () => {
    const email = "nobody-here@example.com";
    for (let n = 0; n < 4; n++) expectRefused(await authJsSignIn(srv.base, email, wrong(n)), "credentials");
    expectRefused(await authJsSignIn(srv.base, email, wrong(4)), "locked");
    expect((await consoleSignIn(srv.base, email, wrong(5))).status).toBe(429);
  });

  it("the Auth.js path cannot choose its own address: forwarded headers, the internal header, a form field", async () => {
    const email = USERS.address;
    // Without TRUST_PROXY the lockout keys on the connection's address, whatever the client sends.
    const disguises = (n: number) => ({
      headers: {
        "x-forwarded-for": `203.0.113.${n + 1}`,
        "x-real-ip": `203.0.113.${n + 1}`,
        "x-awhs-client-ip": `198.51.100.${n + 1}`,
        forwarded: `for=192.0.2.${n + 1}`,
      },
      fields: { ip: `192.0.2.${n + 1}`, clientIp: `192.0.2.${n + 1}` },
    });
    for (let n = 0; n < 4; n++)
      expectRefused(await authJsSignIn(srv.base, email, wrong(n), disguises(n)), "credentials");
    expectRefused(await authJsSignIn(srv.base, email, wrong(4), disguises(4)), "locked");
    expectRefused(await authJsSignIn(srv.base, email, PASSWORD, disguises(99)), "locked");
    expect((await consoleSignIn(srv.base, email, PASSWORD, disguises(98).headers)).status).toBe(429);
    // The failures were recorded under the connection's address, not any of the disguises.
    const res = await consoleCall(srv.base, adminCookie, "GET", `${auditPath()}?action=auth.sign_in_failed&limit=100`);
    const ips = new Set(
      (res.body.events as { actor: { label: string }; data: { ip: string } }[])
        .filter((e) => e.actor.label === email)
        .map((e) => e.data.ip),
    );
    expect([...ips]).toHaveLength(1);
    expect([...ips][0]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("Auth.js's endpoint still requires its CSRF token: no password is checked without it", async () => {
    const res = await raw(srv.base, "POST", "/api/auth/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: USERS.mixed, password: PASSWORD }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.cookies.some((c) => /session-token=./.test(c))).toBe(false);
    expect(new URL(res.location!, srv.base).searchParams.get("error")).toBe("MissingCSRF");
  });
});
