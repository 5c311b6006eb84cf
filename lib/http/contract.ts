// A route's contract: everything known about one method of one route file, written once in the
// `contract.ts` beside its `route.ts` (ARCHITECTURE.md "Route contracts"). The handler takes its
// contract (`withAccessKey(contract.GET, ...)`), so the schemas it validates and the auth it runs
// are the ones described; the OpenAPI document, the server's hot and long route tables and the e2e
// route matrices are derived from the contracts (app/api/contracts.ts, generated).
import type { z } from "zod";
import type { AgentRow } from "../agents/service";
import type { ErrorCode } from "../errors";
import type { Components, Json } from "./openapi/builder";

export type HttpMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: an Access Key (public API), a user token (management API), a console session,
 * the console signed out (sign-in, accepting an invitation), or nobody in particular (service
 * routes; a signed download's token is checked by the route itself).
 */
export type AuthKind = "accessKey" | "userToken" | "console" | "consoleOpen" | "public";

/** The OpenAPI prose of an operation: what the schemas and the contract's own facts do not say. */
export interface OperationDoc {
  /** The OpenAPI path when it is not the route's own (tus's optional catch-all serves two). */
  path?: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  parameters?: Json[];
  requestBody?: Json;
  /** The answers other than the error envelope (successes, tus's plain-text protocol errors). */
  responses: Record<string, Json>;
}

export interface RouteContract<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** The route's pattern as its folders spell it: `/api/agents/[agent_id]/runs`. */
  path: string;
  auth: AuthKind;
  /** The admin role is needed (user token, console); support gets 403 forbidden. */
  admin?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Access Key routes: refuses another kind of agent before the body is read. */
  agentKind?: (agent: AgentRow) => void;
  /** Access Key routes: the scope of Idempotency-Key replays (per agent). */
  idempotency?: string;
  /** The error codes answered in the envelope (the OpenAPI document groups them by status). */
  errors?: readonly ErrorCode[];
  /** `long`: allowed UPLOAD_TIMEOUT_MS rather than REQUEST_TIMEOUT_MS (server.ts). */
  timeout?: "normal" | "long";
  /** Served by server.ts in front of Next's router (lib/http/fast-routes.ts). */
  hot?: boolean;
  /** The operation in the public OpenAPI document; absent for private routes (console, Auth.js). */
  openapi?: (c: Components) => OperationDoc;
}

/** A contract, typed by its schemas (so that the handler that takes it gets typed params/query/body). */
export const route = <P = Record<string, string>, Q = undefined, B = undefined>(
  contract: RouteContract<P, Q, B>,
): RouteContract<P, Q, B> => contract;

/** `/api/agents/[agent_id]` -> `/api/agents/{agent_id}`. */
export const openApiPath = (pattern: string) => pattern.replace(/\[([a-z_]+)\]/g, "{$1}");

/** Refuses a contract handed to the wrong wrapper: the auth the handler runs is the one described. */
export function expectAuth(contract: Pick<RouteContract, "method" | "path" | "auth">, kind: AuthKind) {
  if (contract.auth !== kind) {
    throw new Error(`${contract.method} ${contract.path}: a ${contract.auth} contract given to a ${kind} handler`);
  }
}
