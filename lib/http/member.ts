// The organization API (/api/v1/organizations/[org_id]/...): one principal, a member of the
// organization in the path, whether they come with a user token (`Authorization: Bearer ut_...`,
// scripts and the CLI) or with the console's session cookie (the browser). A bearer decides when
// both are sent. The cookie path keeps the console's guards: a live stored session (signed out
// here or everywhere is signed out) and the same origin on every state change. Membership and the
// admin role are checked here, once, for both (docs/decisions.md, "One member principal").
import { userActor, type Actor } from "../audit";
import { bearerToken } from "../auth/secrets";
import { membershipRole, verifyUserToken } from "../auth/user-tokens";
import { ApiError } from "../errors";
import type { Role } from "../generated/prisma/enums";
import { requireSameOrigin, SAFE_METHODS, sessionUserRow } from "./console";
import { expectAuth, type HandlerResult, type Responses, type RouteContract } from "./contract";
import { wrapRoute, type BaseCtx, type RouteHandler } from "./handler";

/** Who the member is, and how they came. */
export interface Member {
  userId: string;
  email: string;
  /** Their display name, when they gave one (a review claim shows it). */
  name: string | null;
  /** `token`: a user token (no Origin check); `session`: the console's session cookie. */
  via: "token" | "session";
}

export interface MemberCtx<P, Q, B> extends BaseCtx<P, Q, B> {
  user: Member;
  organizationId: string;
  role: Role;
  actor: Actor;
}

/** The caller: the bearer's user token if there is an Authorization header, else the session cookie. */
async function member(req: Request): Promise<Member> {
  const authorization = req.headers.get("authorization");
  if (authorization !== null) {
    const user = await verifyUserToken(bearerToken(authorization));
    return { userId: user.userId, email: user.email, name: user.name, via: "token" };
  }
  if (!SAFE_METHODS.has(req.method)) requireSameOrigin(req);
  const user = await sessionUserRow();
  if (!user) throw new ApiError("unauthorized", "Missing or invalid user token, and no console session.");
  return { userId: user.id, email: user.email, name: user.name, via: "session" };
}

/**
 * An organization API route: a member of the path's `org_id` (404 organization_not_found for anyone
 * else, the same answer whichever way they came), and with `admin: true` the admin role (403 forbidden).
 */
export function withMember<P = Record<string, string>, Q = undefined, B = undefined, R extends Responses = Responses>(
  spec: RouteContract<P, Q, B, R>,
  handler: (c: MemberCtx<P, Q, B>) => Promise<HandlerResult<R>>,
): RouteHandler {
  expectAuth(spec, "member");
  return (req, ctx) =>
    wrapRoute(
      req,
      ctx,
      spec,
      async (r, rawParams, extras) => {
        const user = await member(r);
        extras.principal = user.userId;
        const organizationId = String(rawParams.org_id ?? "");
        const role = await membershipRole(user.userId, organizationId);
        if (spec.admin && role !== "admin") throw new ApiError("forbidden", "This action needs the admin role.");
        return { user, organizationId, role, actor: userActor(user), principal: user.userId };
      },
      handler as (
        c: { user: Member; organizationId: string; role: Role; actor: Actor } & BaseCtx<P, Q, B>,
      ) => Promise<unknown>,
    );
}
