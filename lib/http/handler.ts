// The one wrapper every route handler goes through:
// request id -> auth [-> Access Key rate limit] -> params/query (zod) -> size-limited JSON body (zod) -> [Idempotency-Key]
// -> handler -> envelope. Handlers return plain data (200 JSON), an HttpAnswer (another status, headers)
// or a Response; they throw ApiError for errors.
import type { z } from "zod";
import { agentForRequest, type AgentRow } from "../agents/service";
import { keyActor, type Actor } from "../audit";
import { requirePermission, verifyAccessKey, type KeyPrincipal } from "../auth/access-keys";
import { bearerToken } from "../auth/secrets";
import { ApiError, ClientAbortError } from "../errors";
import { newId } from "../ids";
import { serveRequest } from "../lifecycle";
import { log } from "../log";
import { assertStorable, parseWith } from "../validate";
import { baseUrl } from "./base-url";
import { readJson } from "./body";
import { expectAuth, type HandlerResult, type Responses, type RouteContract } from "./contract";
import { idempotent } from "./idempotency";
import { limitAccessKey } from "./rate-limit";
import { errorResponse, json, HttpAnswer } from "./respond";
import { EventStreamAnswer } from "./sse";

export { HttpAnswer } from "./respond";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

export interface Spec<P, Q, B> {
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  bodyOptional?: boolean;
}

export interface BaseCtx<P, Q, B> {
  req: Request;
  requestId: string;
  params: P;
  query: Q;
  body: B;
  /** Base of the links handed out in answers (PUBLIC_URL, else the caller's Host: lib/http/base-url.ts). */
  baseUrl: string;
}

export interface KeyCtx<P, Q, B> extends BaseCtx<P, Q, B> {
  key: KeyPrincipal;
  agent: AgentRow;
  actor: Actor;
}

export interface Auth {
  principal?: string;
  organizationId?: string;
  /** Scope of Idempotency-Key replays: the same key on another scope is another request. */
  idempotencyScope?: string;
}

const toReply = (result: unknown): HttpAnswer => {
  if (result instanceof HttpAnswer) return result;
  if (result instanceof Response) throw new Error("an idempotent route must answer with data or an HttpAnswer");
  return new HttpAnswer(result ?? {}, 200);
};

/** Logged for a request whose client disconnected before it was complete (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

/** What authentication learns before it may fail: it holds even when the answer is an error. */
export interface AnswerExtras {
  /** Headers of the answer, success or error (RateLimit-* of a verified Access Key). */
  headers: Headers;
  /** Logged as the request's principal if authentication fails after identifying the caller. */
  principal?: string;
}

/** The pipeline shared by every wrapper; `authenticate` is what differs between them. */
export async function wrapRoute<P, Q, B, C extends Auth>(
  req: Request,
  ctx: RouteContext,
  spec: Spec<P, Q, B>,
  authenticate: (req: Request, rawParams: Record<string, unknown>, extras: AnswerExtras) => Promise<C>,
  handler: (c: C & BaseCtx<P, Q, B>) => Promise<unknown>,
): Promise<Response> {
  const requestId = newId("req");
  const started = performance.now();
  const served = serveRequest();
  const url = new URL(req.url);
  let status = 500;
  let clientAborted = false;
  let principal: string | undefined;
  const extras: AnswerExtras = { headers: new Headers() };
  try {
    const rawParams = (await ctx.params) ?? {};
    const rawQuery = Object.fromEntries(url.searchParams);
    // A NUL or unpaired surrogate in the path or query cannot reach a database lookup.
    assertStorable(rawParams, "path");
    assertStorable(rawQuery, "query");
    const auth = await authenticate(req, rawParams, extras);
    principal = auth.principal;
    const params = spec.params ? parseWith(spec.params, rawParams, "path") : (rawParams as P);
    const query = spec.query ? parseWith(spec.query, rawQuery, "query") : (undefined as Q);
    const raw = spec.body ? await readJson(req, undefined, spec.bodyOptional) : undefined;
    const body = spec.body ? parseWith(spec.body, raw, "body") : (undefined as B);
    const call = () => handler({ ...auth, req, requestId, params, query, body, baseUrl: baseUrl(req) });
    const result =
      auth.idempotencyScope !== undefined
        ? await idempotent(
            { req, organizationId: auth.organizationId!, scope: auth.idempotencyScope, body: raw, requestId },
            async () => toReply(await call()),
          )
        : await call();
    const res =
      result instanceof Response
        ? result
        : result instanceof EventStreamAnswer
          ? result.response(req, requestId)
          : result instanceof HttpAnswer
            ? json(result.body, result.status, result.headers)
            : json(result ?? {}, 200);
    extras.headers.forEach((value, name) => res.headers.set(name, value));
    res.headers.set("x-request-id", requestId);
    status = res.status;
    return res;
  } catch (err) {
    principal ??= extras.principal;
    if (err instanceof ClientAbortError || req.signal?.aborted) {
      // The client hung up mid-request: nobody reads an answer, and it is no fault of the service.
      clientAborted = true;
      status = CLIENT_CLOSED_REQUEST;
      return new Response(null, { status, headers: { "x-request-id": requestId } });
    }
    const res = errorResponse(err, requestId, extras.headers);
    status = res.status;
    return res;
  } finally {
    served();
    // Never the headers: the Authorization header must not reach a log line.
    const line = {
      request_id: requestId,
      method: req.method,
      path: url.pathname,
      status,
      ms: Math.round(performance.now() - started),
      principal,
    };
    if (clientAborted) log.warn({ ...line, client_aborted: true }, "request");
    else log.info(line, "request");
  }
}

/**
 * Public webhook API: `Authorization: Bearer ak_...` with agents:invoke, and the agent in the path.
 * `agentKind` refuses another kind of agent (before the body is read); `idempotency` names the
 * scope of Idempotency-Key replays (per agent). Every request of a verified key counts against its
 * rate limit (lib/http/rate-limit.ts), and every answer to it carries the RateLimit-* headers.
 */
export function withAccessKey<
  P = Record<string, string>,
  Q = undefined,
  B = undefined,
  R extends Responses = Responses,
>(spec: RouteContract<P, Q, B, R>, handler: (c: KeyCtx<P, Q, B>) => Promise<HandlerResult<R>>): RouteHandler {
  expectAuth(spec, "accessKey");
  return (req, ctx) =>
    wrapRoute(
      req,
      ctx,
      spec,
      async (r, rawParams, extras) => {
        const key = await verifyAccessKey(bearerToken(r.headers.get("authorization")));
        extras.principal = key.keyId;
        // Per key, before anything else is looked up: a key over its limit costs no more work.
        await limitAccessKey(key, extras.headers);
        requirePermission(key, "agents:invoke");
        const agent = await agentForRequest(key.organizationId, String(rawParams.agent_id ?? ""), key.agentIds);
        spec.agentKind?.(agent);
        return {
          key,
          agent,
          actor: keyActor(key),
          principal: key.keyId,
          organizationId: key.organizationId,
          idempotencyScope: spec.idempotency ? `${spec.idempotency}:${agent.id}` : undefined,
        };
      },
      handler as (
        c: Auth & { key: KeyPrincipal; agent: AgentRow; actor: Actor } & BaseCtx<P, Q, B>,
      ) => Promise<unknown>,
    );
}

/** Unauthenticated routes (health, signed downloads). */
export function withPublic<P = Record<string, string>, Q = undefined, B = undefined, R extends Responses = Responses>(
  spec: RouteContract<P, Q, B, R>,
  handler: (c: BaseCtx<P, Q, B>) => Promise<HandlerResult<R>>,
): RouteHandler {
  expectAuth(spec, "public");
  return (req, ctx) => wrapRoute(req, ctx, spec, async () => ({}), handler);
}

/**
 * An API path no route serves (`/api` itself, the catch-all `/api/[...path]`): 404 in the error
 * envelope rather than Next's HTML page, whatever the method. Each method takes its own contract.
 */
export const notFoundRoute = (contract: RouteContract<Record<string, string>>): RouteHandler =>
  withPublic(contract, async () => {
    throw new ApiError("not_found", "No such API route.");
  });
