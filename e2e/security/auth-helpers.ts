// What the console's security tests share: a server of their own with users made by the admin
// CLI's services before it starts (so that lockouts never touch the shared suites' users), Auth.js's
// own endpoints driven as any client can (CSRF token, form post), the console's sign-in, and raw
// requests with a Host header of the test's choosing (fetch cannot set one).
import http from "node:http";
import { expect } from "vitest";
import { freshTarget, startServer, withTargetDatabase, type RunningServer } from "../api/server";

export const PASSWORD = "correct horse battery";

export interface RawAnswer {
  status: number;
  location: string | undefined;
  /** `name=value` of every Set-Cookie. */
  cookies: string[];
  text: string;
  json(): any;
}

/** One request to the server's real address, with exactly these headers (Host included). */
export function raw(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method, headers: opts.headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          location: res.headers.location,
          cookies: (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!),
          text,
          json: () => JSON.parse(text),
        }),
      );
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** The session cookie among Set-Cookie values (`authjs.session-token=...`), if one was set with a value. */
export const sessionCookie = (cookies: string[]) => cookies.find((c) => /^(__Secure-)?authjs\.session-token=./.test(c));

/** Auth.js's CSRF token and the cookies that go with it, as its own sign-in page would get them. */
export async function authJsCsrf(base: string, headers: Record<string, string> = {}) {
  const res = await raw(base, "GET", "/api/auth/csrf", { headers });
  expect(res.status, res.text).toBe(200);
  return { csrfToken: res.json().csrfToken as string, cookie: res.cookies.join("; ") };
}

/**
 * A form post to Auth.js's own credentials endpoint (`/api/auth/callback/credentials`), with a
 * valid CSRF token: what any client can do without the console's sign-in route.
 */
export async function authJsSignIn(
  base: string,
  email: string,
  password: string,
  opts: {
    headers?: Record<string, string>;
    fields?: Record<string, string>;
    /** A token fetched beforehand (authJsCsrf), e.g. to send many attempts at once. */
    csrf?: { csrfToken: string; cookie: string };
  } = {},
) {
  const { csrfToken, cookie } = opts.csrf ?? (await authJsCsrf(base, opts.headers));
  const res = await raw(base, "POST", "/api/auth/callback/credentials", {
    headers: { ...opts.headers, "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ email, password, csrfToken, ...opts.fields }).toString(),
  });
  return { ...res, session: sessionCookie(res.cookies) };
}

/** The console's own sign-in route. */
export async function consoleSignIn(
  base: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/api/console/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify({ email, password }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any, session: sessionCookie(cookies) };
}

/** A JSON call to the console API with a session cookie and the console's own Origin. */
export async function consoleCall(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      origin: base,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

export interface AuthServer {
  base: string;
  server: RunningServer;
  org: Record<string, string>;
  /** The organization's admin (reads the audit log). */
  adminEmail: string;
  stop(): Promise<void>;
}

/**
 * A server of the test's own on a fresh database: one organization with an admin and the given
 * support members, all with PASSWORD.
 */
export async function authServer(label: string, members: string[], env: Record<string, string> = {}) {
  const { target, dispose } = await freshTarget(label);
  const adminEmail = `${label}-admin@example.com`;
  const org = await withTargetDatabase(target, async () => {
    const { bootstrap, ensureUser } = await import("../../lib/orgs/service");
    const made = await bootstrap({ org: label, email: adminEmail, password: PASSWORD });
    for (const email of members)
      await ensureUser({ organizationId: made.organization_id, email, password: PASSWORD, role: "support" });
    return made;
  });
  const server = await startServer(target, { SEED_DEMO: "false", ...env });
  return {
    base: server.baseUrl,
    server,
    org,
    adminEmail,
    stop: async () => {
      await server.stop("SIGKILL");
      await dispose();
    },
  } satisfies AuthServer;
}
