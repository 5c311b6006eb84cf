// The console's backend-for-frontend (/api/console/...) and its pages: the signed-in user from
// the Auth.js session, the organization they work in (a cookie, checked against their memberships
// on every request), their role there, and refusal of cross-site state changes.
import { cookies } from "next/headers";
import { userActor, type Actor } from "../audit";
import { sessionUser as liveSessionUser } from "../auth/sessions";
import { ApiError } from "../errors";
import type { Role } from "../generated/prisma/enums";
import { auth } from "./auth";
import { baseOrigin } from "./base-url";
import { expectAuth, type HandlerResult, type Responses, type RouteContract } from "./contract";
import { wrapRoute, type BaseCtx, type RouteHandler } from "./handler";

export const ORG_COOKIE = "awhs_org";

export interface ConsoleUser {
  userId: string;
  email: string;
  name: string | null;
  organizationId: string;
  organizationName: string;
  role: Role;
  organizations: { organization_id: string; name: string; role: Role }[];
}

/** The user of a live stored session (not signed out, here or everywhere, nor expired), with their memberships, or null. */
export async function sessionUserRow() {
  const session = (await auth()) as { uid?: unknown; sid?: unknown } | null;
  if (typeof session?.uid !== "string" || typeof session.sid !== "string") return null;
  return liveSessionUser({ userId: session.uid, sessionId: session.sid });
}

/** The signed-in person, member of an organization or not (an invitation may make them one). */
export async function signedInPerson(): Promise<{ userId: string; email: string } | null> {
  const user = await sessionUserRow();
  return user && { userId: user.id, email: user.email };
}

/**
 * The signed-in console user, or null: no valid token, a stored session that was signed out (here
 * or everywhere) or expired, or a user who belongs to no organization any more. One query: the
 * user with their memberships, on the condition that the session is live.
 */
export async function currentConsoleUser(): Promise<ConsoleUser | null> {
  const user = await sessionUserRow();
  if (!user || user.memberships.length === 0) return null;
  const chosen = (await cookies()).get(ORG_COOKIE)?.value;
  const membership = user.memberships.find((m) => m.organizationId === chosen) ?? user.memberships[0]!;
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    organizationId: membership.organizationId,
    organizationName: membership.organization.name,
    role: membership.role,
    organizations: user.memberships.map((m) => ({
      organization_id: m.organizationId,
      name: m.organization.name,
      role: m.role,
    })),
  };
}

/** The client's address (the connection's peer, or with TRUST_PROXY=true what the proxy saw): ./client-ip.ts. */
export { clientIp } from "./client-ip";

/**
 * Browsers send Origin with every state-changing fetch; a request from another site (or a form
 * post from one) carries a different Origin, or none from non-browser tools. Both are refused. The
 * whole origin counts (scheme, host and port): the console's is the base URL of
 * lib/http/base-url.ts, so an http page cannot act for the https one, nor another port for this one.
 */
export function requireSameOrigin(req: Request) {
  const origin = req.headers.get("origin");
  if (!origin || !URL.canParse(origin) || new URL(origin).origin !== baseOrigin(req)) {
    throw new ApiError("cross_site_request", "State-changing console requests must come from the console itself.");
  }
}

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface ConsoleCtx<P, Q, B> extends BaseCtx<P, Q, B> {
  user: ConsoleUser;
  organizationId: string;
  role: Role;
  actor: Actor;
}

/**
 * A console route: signed-in session (401 otherwise), same-origin for anything but reads (403
 * cross_site_request), and with `admin: true` the admin role (403 forbidden for support).
 */
export function withConsole<P = Record<string, string>, Q = undefined, B = undefined, R extends Responses = Responses>(
  spec: RouteContract<P, Q, B, R>,
  handler: (c: ConsoleCtx<P, Q, B>) => Promise<HandlerResult<R>>,
): RouteHandler {
  expectAuth(spec, "console");
  return (req, ctx) =>
    wrapRoute(
      req,
      ctx,
      spec,
      async (r) => {
        if (!SAFE_METHODS.has(r.method)) requireSameOrigin(r);
        const user = await currentConsoleUser();
        if (!user) throw new ApiError("unauthorized", "Sign in to use the console.");
        if (spec.admin && user.role !== "admin") throw new ApiError("forbidden", "This action needs the admin role.");
        return {
          user,
          organizationId: user.organizationId,
          role: user.role,
          actor: userActor(user),
          principal: user.userId,
        };
      },
      handler as (
        c: { user: ConsoleUser; organizationId: string; role: Role; actor: Actor } & BaseCtx<P, Q, B>,
      ) => Promise<unknown>,
    );
}

/** Console routes that work signed out (sign-in): same-origin only. */
export function withConsolePublic<P = Record<string, string>, Q = undefined, B = undefined>(
  spec: RouteContract<P, Q, B>,
  handler: (c: BaseCtx<P, Q, B>) => Promise<unknown>,
): RouteHandler {
  expectAuth(spec, "consoleOpen");
  return (req, ctx) =>
    wrapRoute(
      req,
      ctx,
      spec,
      async (r) => {
        if (!SAFE_METHODS.has(r.method)) requireSameOrigin(r);
        return {};
      },
      handler,
    );
}
