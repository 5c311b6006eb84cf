// Redirects from outside: after sign-in (`/login?next=`) and through Auth.js (`callbackUrl`), a
// browser is only ever sent to a path of this site; and every address Auth.js hands out (redirects,
// its providers list, SSO's redirect_uri) is the service's own base URL as lib/http/base-url.ts
// decides it, never the listen address (0.0.0.0) nor a host the caller forged.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIL_HOST, hasSpaceOrControl, OPEN_REDIRECT_ATTEMPTS } from "../../test-support/redirect-bypasses";
import { signIn as consoleSignInShared } from "../api/console";
import { ctx } from "../api/helpers";
import { authJsCsrf, authJsSignIn, authServer, PASSWORD, raw, type AuthServer } from "./auth-helpers";

/** The answer sends a browser to a path of `base`, written so that no browser reads another host in it. */
function expectOnSite(location: string | undefined, base: string, what: string) {
  expect(location, what).toBeDefined();
  expect(hasSpaceOrControl(location!), `${what}: ${JSON.stringify(location)}`).toBe(false);
  const url = new URL(location!, base);
  expect(url.origin, `${what} -> ${location}`).toBe(base);
  expect(url.pathname, `${what} -> ${location}`).not.toMatch(/^\/[/\\]/);
  if (location!.startsWith("/")) expect(location!, what).not.toMatch(/^\/[/\\]/);
  expect(url.host, what).not.toContain(EVIL_HOST);
}

const label = (v: string) => JSON.stringify(v).slice(0, 50);

describe("T-AUTH-3 redirects after sign-in stay on the site", () => {
  let cookie: string;
  let base: string;

  beforeAll(async () => {
    base = ctx().baseUrl;
    cookie = (await consoleSignInShared("admin-a@example.com")).cookie;
  });

  it("/login?next= answers a signed-in user with a 307 to a path of the site, for every bypass form", async () => {
    for (const value of OPEN_REDIRECT_ATTEMPTS) {
      const res = await raw(base, "GET", `/login?next=${encodeURIComponent(value)}`, { headers: { cookie } });
      expect(res.status, `${label(value)}: ${res.text.slice(0, 200)}`).toBe(307);
      expectOnSite(res.location, base, label(value));
    }
  });

  it("/login?next= keeps a path of the site, normalised", async () => {
    for (const [value, expected] of [
      ["/keys", "/keys"],
      ["/runs?status=failed", "/runs?status=failed"],
      ["/agents/x/../y", "/agents/y"],
    ]) {
      const res = await raw(base, "GET", `/login?next=${encodeURIComponent(value!)}`, { headers: { cookie } });
      expect(res.status).toBe(307);
      expect(res.location).toBe(expected);
    }
  });

  it("signed out, /login renders for every bypass form (no 500)", async () => {
    for (const value of OPEN_REDIRECT_ATTEMPTS) {
      const res = await raw(base, "GET", `/login?next=${encodeURIComponent(value)}`);
      expect(res.status, label(value)).toBe(200);
      expect(res.text, label(value)).toContain("Sign in to the console");
    }
  });

  it("Auth.js's callbackUrl: sign-out, the credentials callback and its sign-in page send nowhere else", async () => {
    const csrf = await authJsCsrf(base);
    for (const value of OPEN_REDIRECT_ATTEMPTS) {
      // As a form field: Auth.js reads the callback URL from the body of its POSTs.
      const out = await raw(base, "POST", "/api/auth/signout", {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookie },
        body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: value }).toString(),
      });
      expect(out.status, label(value)).toBe(302);
      expectOnSite(out.location, base, `signout ${label(value)}`);
      // As a query parameter: refused (400) when it is not an http(s) URL or a path, else on the site.
      const page = await raw(base, "GET", `/api/auth/signin?callbackUrl=${encodeURIComponent(value)}`);
      if (page.status === 400) expect(page.json().error.code).toBe("invalid_request");
      else {
        expect(page.status, label(value)).toBe(302);
        expectOnSite(page.location, base, `signin ${label(value)}`);
        const callbackUrl = new URL(page.location!, base).searchParams.get("callbackUrl");
        expectOnSite(callbackUrl ?? "/", base, `signin's callbackUrl ${label(value)}`);
      }
    }
  });

  it("Auth.js's credentials callback sends a signed-in user only to the site", async () => {
    for (const value of ["https://evil.example/", "//evil.example", "/\t/evil.example", "/.//evil.example"]) {
      const res = await authJsSignIn(base, "admin-a@example.com", "correct horse battery", {
        fields: { callbackUrl: value },
      });
      expect(res.session, label(value)).toBeDefined();
      expectOnSite(res.location, base, label(value));
    }
  });
});

/** A stand-in OpenID provider: just the discovery document Auth.js reads before it redirects. */
async function fakeIssuer() {
  const server = http.createServer((req, res) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url !== "/.well-known/openid-configuration") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe("T-AUTH-6 Auth.js's answers name the service's base URL, never 0.0.0.0 or a forged host", () => {
  let srv: AuthServer;
  let issuer: Awaited<ReturnType<typeof fakeIssuer>>;
  let port: string;

  beforeAll(async () => {
    issuer = await fakeIssuer();
    // HOST=0.0.0.0 as in production: Next builds route handlers' request URLs from the listen address.
    srv = await authServer("authurls", [], {
      HOST: "0.0.0.0",
      OIDC_ISSUER: issuer.url,
      OIDC_CLIENT_ID: "awhs-console",
      OIDC_CLIENT_SECRET: "not-a-real-secret",
    });
    port = new URL(srv.base).port;
  });

  afterAll(async () => {
    await srv?.stop();
    issuer?.close();
  });

  /** Every answer of /api/auth/* a client can get, with these headers. */
  async function answers(headers: Record<string, string>) {
    const csrf = await authJsCsrf(srv.base, headers);
    const form = (fields: Record<string, string>) => ({
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookie },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields }).toString(),
    });
    const signedIn = await authJsSignIn(srv.base, srv.adminEmail, PASSWORD, { headers });
    const wrong = await authJsSignIn(srv.base, srv.adminEmail, "not the password", { headers });
    return {
      "credentials callback (signed in)": signedIn,
      "credentials callback (wrong password)": wrong,
      "GET signin": await raw(srv.base, "GET", "/api/auth/signin", { headers }),
      "GET signout": await raw(srv.base, "GET", "/api/auth/signout", { headers }),
      "POST signout": await raw(srv.base, "POST", "/api/auth/signout", form({})),
      "POST signout, signed in": await raw(srv.base, "POST", "/api/auth/signout", {
        ...form({}),
        headers: { ...form({}).headers, cookie: `${csrf.cookie}; ${signedIn.session}` },
      }),
      "GET providers": await raw(srv.base, "GET", "/api/auth/providers", { headers }),
      "GET error": await raw(srv.base, "GET", "/api/auth/error?error=Configuration", { headers }),
      "POST signin/oidc (SSO)": await raw(srv.base, "POST", "/api/auth/signin/oidc", form({})),
      "GET callback/oidc, refused by the provider": await raw(
        srv.base,
        "GET",
        "/api/auth/callback/oidc?error=access_denied",
        { headers },
      ),
      "POST signin without CSRF": await raw(srv.base, "POST", "/api/auth/signin/oidc", { headers }),
    };
  }

  function expectOnlyBase(all: Record<string, { status: number; location?: string; text: string }>, base: string) {
    for (const [what, res] of Object.entries(all)) {
      const named = `${res.location ?? ""} ${res.text}`;
      expect(named, what).not.toContain("0.0.0.0");
      expect(named, what).not.toContain("forged.example");
      expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
      // Every absolute address in a Location or a body is the base URL (or the provider's).
      for (const m of named.matchAll(/https?:\/\/[^\s"'<>&\\]+/g)) {
        const url = new URL(m[0]);
        if (url.origin === issuer.url) {
          const redirectUri = url.searchParams.get("redirect_uri");
          if (redirectUri) expect(new URL(redirectUri).origin, `${what}: redirect_uri`).toBe(base);
          continue;
        }
        expect(url.origin, `${what}: ${m[0]}`).toBe(base);
      }
    }
  }

  it("with the Host a browser sends", async () => {
    const all = await answers({ host: `127.0.0.1:${port}` });
    // The SSO redirect goes to the provider and names our callback on the caller's host.
    const sso = all["POST signin/oidc (SSO)"];
    expect(sso.status, sso.text).toBe(302);
    const authorize = new URL(sso.location!);
    expect(authorize.origin).toBe(issuer.url);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${port}/api/auth/callback/oidc`);
    expectOnlyBase(all, `http://127.0.0.1:${port}`);
  });

  it("with another Host: that host, over http", async () => {
    expectOnlyBase(await answers({ host: `dash.example.test:${port}` }), `http://dash.example.test:${port}`);
  });

  it("a forged X-Forwarded-Host or X-Forwarded-Proto is ignored without TRUST_PROXY", async () => {
    const all = await answers({
      host: `dash.example.test:${port}`,
      "x-forwarded-host": "forged.example",
      "x-forwarded-proto": "https",
    });
    expectOnlyBase(all, `http://dash.example.test:${port}`);
  });

  it("a Host that is not a host[:port]: the listen address's public form, never 0.0.0.0", async () => {
    expectOnlyBase(await answers({ host: "forged.example/x" }), `http://localhost:${port}`);
  });
});
