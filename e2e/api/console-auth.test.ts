// Console sign-in details that need a server of their own: SSO configured or not, and the
// session cookie's attributes.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { freshTarget, ownServer, startServer, type OwnServer } from "./server";
import { call, ctx } from "./helpers";

let sso: OwnServer | undefined;
afterAll(async () => {
  await sso?.dispose();
});

describe("console sign-in", () => {
  it("offers 'Sign in with SSO' only when OIDC is configured", async () => {
    const plain = await fetch(`${ctx().baseUrl}/login`).then((r) => r.text());
    expect(plain).toContain("Sign in to the console");
    expect(plain).not.toContain("Sign in with SSO");

    sso = await ownServer("sso", {
      OIDC_ISSUER: "https://login.example.com/",
      OIDC_CLIENT_ID: "awhs-console",
      OIDC_CLIENT_SECRET: "not-a-real-secret",
    });
    const page = await fetch(`${sso.server.baseUrl}/login`).then((r) => r.text());
    expect(page).toContain("Sign in with SSO");
    const me = await sso.call("GET", "/api/console/me");
    expect(me.status).toBe(401);
  });

  it("sets an httpOnly, SameSite=Lax session cookie, and refuses a forged one", async () => {
    const base = ctx().baseUrl;
    const res = await fetch(`${base}/api/console/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: "admin-a@example.com", password: "correct horse battery" }),
    });
    expect(res.status).toBe(200);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=lax/i);
    expect(session).not.toMatch(/Secure/i); // plain http here; Auth.js adds Secure under https
    const value = session!.split(";")[0]!.split("=").slice(1).join("=");
    const tampered = `authjs.session-token=${value.slice(0, -4)}AAAA`;
    const forged = await call("GET", "/api/console/me", { headers: { cookie: tampered } });
    expect(forged.status).toBe(401);
    const genuine = await call("GET", "/api/console/me", { headers: { cookie: `authjs.session-token=${value}` } });
    expect(genuine.status).toBe(200);
    expect(genuine.body.user.email).toBe("admin-a@example.com");
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "refuses to start on PostgreSQL without AUTH_SECRET, saying why",
    async () => {
      const fresh = await freshTarget("no-secret");
      try {
        const started = startServer(fresh.target, { AUTH_SECRET: "" });
        await expect(started).rejects.toThrow(/exited during start/);
        const log = (await started.catch((e: Error) => e.message)) as string;
        const file = /see (\S+)$/.exec(log)?.[1];
        expect(readFileSync(file!, "utf8")).toContain("AUTH_SECRET must be set when DATABASE_URL is set");
      } finally {
        await fresh.dispose();
      }
    },
  );
});
