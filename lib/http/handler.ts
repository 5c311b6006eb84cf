// The one wrapper every route handler goes through:
// request id -> auth -> params/query (zod) -> size-limited JSON body (zod) -> handler -> envelope.
// Handlers return plain data (200 JSON) or a Response; they throw ApiError for errors.
import type { z } from "zod";
import { requirePermission, verifyAccessKey, type KeyPrincipal } from "../auth/access-keys";
import { bearerToken } from "../auth/secrets";
import { membershipRole, verifyUserToken, type UserPrincipal } from "../auth/user-tokens";
import { ApiError } from "../errors";
import type { Role } from "../generated/prisma/enums";
import { newId } from "../ids";
import { log } from "../log";
import { loadAgentForKey, type AgentRow } from "../agents/service";
import { readJson } from "./body";
import { errorResponse, json } from "./respond";
import { parseWith } from "./validate";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

interface Spec<P, Q, B> {
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
}

interface BaseCtx<P, Q, B> {
  req: Request;
  requestId: string;
  params: P;
  query: Q;
  body: B;
}

export interface KeyCtx<P, Q, B> extends BaseCtx<P, Q, B> {
  key: KeyPrincipal;
  agent: AgentRow;
}

export interface UserCtx<P, Q, B> extends BaseCtx<P, Q, B> {
  user: UserPrincipal;
  organizationId: string;
  role: Role;
}

/** A handler's result with a status other than 200, or extra headers. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers?: HeadersInit,
  ) {}
}

async function run<P, Q, B, C>(
  req: Request,
  ctx: RouteContext,
  spec: Spec<P, Q, B>,
  authenticate: (req: Request, rawParams: Record<string, unknown>) => Promise<C>,
  handler: (c: C & BaseCtx<P, Q, B>) => Promise<unknown>,
): Promise<Response> {
  const requestId = newId("req");
  const started = performance.now();
  const url = new URL(req.url);
  let status = 500;
  let principal: string | undefined;
  try {
    const rawParams = (await ctx.params) ?? {};
    const auth = await authenticate(req, rawParams);
    principal = (auth as { key?: KeyPrincipal }).key?.keyId ?? (auth as { user?: UserPrincipal }).user?.userId;
    const params = spec.params ? parseWith(spec.params, rawParams, "path") : (rawParams as P);
    const query = spec.query ? parseWith(spec.query, Object.fromEntries(url.searchParams), "query") : (undefined as Q);
    const body = spec.body ? parseWith(spec.body, await readJson(req), "body") : (undefined as B);
    const result = await handler({ ...auth, req, requestId, params, query, body });
    const res =
      result instanceof Response
        ? result
        : result instanceof Reply
          ? json(result.body, result.status, result.headers)
          : json(result ?? {}, 200);
    res.headers.set("x-request-id", requestId);
    status = res.status;
    return res;
  } catch (err) {
    const res = errorResponse(err, requestId);
    status = res.status;
    return res;
  } finally {
    // Never the headers: the Authorization header must not reach a log line.
    log.info(
      {
        request_id: requestId,
        method: req.method,
        path: url.pathname,
        status,
        ms: Math.round(performance.now() - started),
        principal,
      },
      "request",
    );
  }
}

/** Public webhook API: `Authorization: Bearer ak_...` with agents:invoke, and the agent in the path. */
export function withAccessKey<P = Record<string, string>, Q = undefined, B = undefined>(
  spec: Spec<P, Q, B>,
  handler: (c: KeyCtx<P, Q, B>) => Promise<unknown>,
): RouteHandler {
  return (req, ctx) =>
    run(
      req,
      ctx,
      spec,
      async (r, rawParams) => {
        const key = await verifyAccessKey(bearerToken(r.headers.get("authorization")));
        requirePermission(key, "agents:invoke");
        const agent = await loadAgentForKey(key.organizationId, String(rawParams.agent_id ?? ""));
        return { key, agent };
      },
      handler as (c: { key: KeyPrincipal; agent: AgentRow } & BaseCtx<P, Q, B>) => Promise<unknown>,
    );
}

/** Management API: `Authorization: Bearer ut_...` of a member of the organization in the path. */
export function withUserToken<P = Record<string, string>, Q = undefined, B = undefined>(
  spec: Spec<P, Q, B> & { admin?: boolean },
  handler: (c: UserCtx<P, Q, B>) => Promise<unknown>,
): RouteHandler {
  return (req, ctx) =>
    run(
      req,
      ctx,
      spec,
      async (r, rawParams) => {
        const user = await verifyUserToken(bearerToken(r.headers.get("authorization")));
        const organizationId = String(rawParams.org_id ?? "");
        const role = await membershipRole(user.userId, organizationId);
        if (spec.admin && role !== "admin") throw new ApiError("forbidden", "This action needs the admin role.");
        return { user, organizationId, role };
      },
      handler as (
        c: { user: UserPrincipal; organizationId: string; role: Role } & BaseCtx<P, Q, B>,
      ) => Promise<unknown>,
    );
}

/** Unauthenticated routes (health, signed downloads). */
export function withPublic<P = Record<string, string>, Q = undefined, B = undefined>(
  spec: Spec<P, Q, B>,
  handler: (c: BaseCtx<P, Q, B>) => Promise<unknown>,
): RouteHandler {
  return (req, ctx) => run(req, ctx, spec, async () => ({}), handler);
}
