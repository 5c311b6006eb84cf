// the console API from a test: signing in (a session cookie), calls that carry it with
// a same-origin Origin header as the browser would, and people joining an organization through an
// invitation (the only way in besides the admin CLI).
import { expect } from "vitest";
import { call, ctx, type ApiResponse } from "./helpers";

export const PASSWORD = "correct horse battery";

export interface ConsoleSession {
  cookie: string;
  /** The server this session belongs to. */
  base: string;
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
}

/**
 * Console calls to `base` carrying `cookie` (may be empty: signed out) and the console's Origin:
 * `base`, or the origin of the server's PUBLIC_URL when it has one (what a browser there sends).
 */
export function consoleSession(cookie: string, base = ctx().baseUrl, origin = base): ConsoleSession {
  return {
    cookie,
    base,
    call: (method, path, body, headers) =>
      call(method, path, { body, base, headers: { ...(cookie ? { cookie } : {}), origin, ...headers } }),
  };
}

/** A path of the organization API (`/api/v1/organizations/{org}...`), org A of the suite by default. */
export const orgPath = (path: string, orgId = ctx().orgA.organization_id) => `/api/v1/organizations/${orgId}${path}`;

const sessionOrgs = new WeakMap<ConsoleSession, Promise<string>>();

/**
 * A path of the organization API in the organization `session` works in (its console's, read once
 * from `/api/console/me`): for sessions of other organizations or of a test's own server.
 */
export async function inOrg(session: ConsoleSession, path: string): Promise<string> {
  let org = sessionOrgs.get(session);
  if (!org) {
    org = session.call("GET", "/api/console/me").then((me) => {
      expect(me.status, me.text).toBe(200);
      return me.body.organization.organization_id as string;
    });
    sessionOrgs.set(session, org);
  }
  return orgPath(path, await org);
}

/** The cookies an answer sets, as a Cookie header. */
export const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

export async function signIn(
  email: string,
  password = PASSWORD,
  base = ctx().baseUrl,
  origin = base,
): Promise<ConsoleSession> {
  const res = await fetch(`${base}/api/console/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return consoleSession(cookiesOf(res.headers), base, origin);
}

/** An invitation made by `admin` (201): the answer, with the link. */
export async function invite(admin: ConsoleSession, email: string, role = "support") {
  const res = await admin.call("POST", await inOrg(admin, "/invitations"), { email, role });
  expect(res.status, res.text).toBe(201);
  return res.body as { invitation_id: string; email: string; role: string; url: string; emailed: boolean };
}

/** The token of an invitation link (`.../invite/<token>`). */
export const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** Accepts an invitation signed out, creating the account: the answer and the new account's session. */
export async function acceptAsNew(
  token: string,
  password = PASSWORD,
  base = ctx().baseUrl,
  name?: string,
  origin = base,
) {
  const res = await consoleSession("", base, origin).call("POST", "/api/console/invitations/accept", {
    token,
    password,
    ...(name ? { name } : {}),
  });
  return { res, session: consoleSession(cookiesOf(res.headers), base, origin) };
}

/** A new account that joined `admin`'s organization through an invitation: its user id. */
export async function addMember(admin: ConsoleSession, email: string, role = "support", password = PASSWORD) {
  const { res } = await acceptAsNew(tokenOf((await invite(admin, email, role)).url), password, admin.base);
  expect(res.status, res.text).toBe(200);
  return res.body.member.user_id as string;
}
