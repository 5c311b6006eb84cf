// A route's contract: everything known about one method of one route file, written once in the
// `contract.ts` beside its `route.ts` (ARCHITECTURE.md "Route contracts"). The handler takes its
// contract (`withAccessKey(contract.GET, ...)`), so the schemas it validates and the auth it runs
// are the ones described; `responses` holds the schema of each answer, so the OpenAPI document's
// answers, the console's typed services and the e2e check of every answer (e2e/api/answers.ts) read
// the same schema. The OpenAPI document, the server's hot and long route tables and the e2e route
// matrices are derived from the contracts (app/api/contracts.ts, generated).
import type { z } from "zod";
import type { AgentRow } from "../agents/service";
import type { ErrorCode } from "../errors";
import type { HttpAnswer } from "./respond";

export type HttpMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: an Access Key (public API), a member of the path's organization with a user token
 * or a console session (the organization API, lib/http/member.ts), a console session,
 * the console signed out (sign-in, accepting an invitation), or nobody in particular (service
 * routes; a signed download's token is checked by the route itself).
 */
export type AuthKind = "accessKey" | "member" | "console" | "consoleOpen" | "public";

/**
 * An answer without a JSON body a schema describes: no body (`204`, `HEAD`, tus), a file's bytes
 * (downloads), text (`/api/metrics`, tus's plain-text refusals), Server-Sent Events, a redirect
 * (`302`), or a body of another library's making (Auth.js).
 */
export interface BodyMarker {
  readonly body: "none" | "file" | "text" | "eventStream" | "redirect" | "external";
  /** `text`: its media type. */
  readonly mediaType?: string;
}

/** A JSON answer, or with `Accept: text/event-stream` the same answer streamed (docs/api.md, Streaming replies). */
export interface JsonOrEventStream<S extends z.ZodType = z.ZodType> {
  readonly body: "jsonOrEventStream";
  readonly json: S;
}

/** What a contract says one status answers: the zod schema of its JSON body, or a marker. */
export type Answer = z.ZodType | BodyMarker | JsonOrEventStream;

/** The markers of answers that are not (only) JSON. */
export const ANSWER = {
  none: { body: "none" },
  file: { body: "file" },
  eventStream: { body: "eventStream" },
  redirect: { body: "redirect" },
  external: { body: "external" },
  text: (mediaType = "text/plain"): BodyMarker => ({ body: "text", mediaType }),
  jsonOrEventStream: <S extends z.ZodType>(json: S): JsonOrEventStream<S> => ({ body: "jsonOrEventStream", json }),
} as const satisfies Record<string, BodyMarker | ((...a: never[]) => BodyMarker | JsonOrEventStream)>;

const isMarker = (answer: Answer): answer is BodyMarker | JsonOrEventStream =>
  typeof (answer as { body?: unknown }).body === "string" && !("_zod" in answer);

/** The schema of an answer's JSON body, or undefined when it has none. */
export function jsonSchemaOf(answer: Answer | undefined): z.ZodType | undefined {
  if (!answer) return undefined;
  if (!isMarker(answer)) return answer;
  return answer.body === "jsonOrEventStream" ? answer.json : undefined;
}

/** The marker of a non-JSON answer (or of the stream beside a JSON one), or undefined for plain JSON. */
export const markerOf = (answer: Answer): BodyMarker | JsonOrEventStream | undefined =>
  isMarker(answer) ? answer : undefined;

/** The prose of one answer: the schema or marker comes from the contract's `responses`. */
export interface AnswerDoc {
  description: string;
  headers?: Json;
  /** Named examples of a JSON body. */
  examples?: Record<string, { summary: string; value: unknown }>;
  /** A text or event-stream body's example. */
  example?: string;
  /** An event stream's description (what events it sends). */
  stream?: string;
}

/** A JSON object of the OpenAPI document. */
type Json = Record<string, unknown>;

/**
 * What a contract's OpenAPI prose may ask of the document's builder (lib/openapi/builder.ts's
 * Components): a reference to a named component. Declared here so that the request layer does not
 * import the generator that reads it.
 */
export interface SchemaNamer {
  ref(name: string, schema: z.ZodType, description?: string): Json;
}

/** The OpenAPI prose of an operation: what the schemas and the contract's own facts do not say. */
export interface OperationDoc {
  /** The OpenAPI path when it is not the route's own (tus's optional catch-all serves two). */
  path?: string;
  /**
   * With `path`: the schema of its parameters, as `params` is of the route's own (tus's catch-all
   * segment is the upload's id). Their descriptions and examples are its fields' `.meta()`.
   */
  pathParams?: z.ZodObject;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * Header parameters. The path's come from the contract's `params` schema and the query's from its
   * `query` schema (each field's `.meta({ description, example })`).
   */
  parameters?: Json[];
  /** Examples of the contract's JSON `body` (its schema is the contract's), by name. */
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  /** A body the contract's `body` schema does not describe: a multipart form, tus's bytes, a union by agent kind. */
  requestBody?: Json;
  /** The prose of each answer of the contract's `responses`, by status. */
  responses: Record<string, AnswerDoc>;
}

/** Each answer other than the error envelope, by status (successes, and tus's plain-text refusals). */
export type Responses = Readonly<Record<number, Answer>>;

export interface RouteContract<P = unknown, Q = unknown, B = unknown, R extends Responses = Responses> {
  method: HttpMethod;
  /** The route's pattern as its folders spell it: `/api/agents/[agent_id]/runs`. */
  path: string;
  auth: AuthKind;
  /** The admin role is needed (member, console); support gets 403 forbidden. */
  admin?: boolean;
  /** The path's segments (`[agent_id]`), a field each; the OpenAPI document describes each by its `.meta()`. */
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The body may be empty (read as `{}`); when present it is JSON as usual. */
  bodyOptional?: boolean;
  /** Access Key routes: refuses another kind of agent before the body is read. */
  agentKind?: (agent: AgentRow) => void;
  /** Access Key routes: the scope of Idempotency-Key replays (per agent). */
  idempotency?: string;
  /** Every answer but the error envelope, by status: a zod schema of its JSON body, or a marker (ANSWER). */
  responses: R;
  /** The error codes answered in the envelope (the OpenAPI document groups them by status). */
  errors?: readonly ErrorCode[];
  /** `long`: allowed UPLOAD_TIMEOUT_MS rather than REQUEST_TIMEOUT_MS (server.ts). */
  timeout?: "normal" | "long";
  /** Served by server.ts in front of Next's router (lib/server/fast-routes.ts). */
  hot?: boolean;
  /** The operation in the public OpenAPI document; absent for private routes (console, Auth.js). */
  openapi?: (c: SchemaNamer) => OperationDoc;
}

/**
 * What a caller sends a contract's route: its query and body as their schemas read them (a field
 * with a default may be left out). Only a type: the console's typed requests read it
 * (components/console/use-api.ts).
 */
export interface CallerInputs<QI, BI> {
  readonly inputs?: { query: QI; body: BI };
}

/** A contract, typed by its schemas (so that the handler that takes it gets typed params/query/body). */
export const route = <
  P = Record<string, string>,
  Q = undefined,
  B = undefined,
  const R extends Responses = Responses,
  QI = Q,
  BI = B,
>(
  contract: RouteContract<P, Q, B, R> & { query?: z.ZodType<Q, QI>; body?: z.ZodType<B, BI> },
): RouteContract<P, Q, B, R> & CallerInputs<QI, BI> => contract;

/**
 * What a handler given a contract with these `responses` may return: the JSON body of one of them
 * (checked at compile time against the schema), or an HttpAnswer, Response or stream it builds itself.
 */
export type HandlerResult<R extends Responses> = number extends keyof R
  ? unknown // a contract typed only as RouteContract: nothing to check against
  : JsonAnswers<R> | HttpAnswer | Response;

/** The JSON bodies of `responses`, as a handler returns them (before serialisation). */
type JsonAnswers<R extends Responses> = {
  [S in keyof R]: R[S] extends z.ZodType ? z.input<R[S]> : R[S] extends JsonOrEventStream<infer J> ? z.input<J> : never;
}[keyof R];

/** `/api/agents/[agent_id]` -> `/api/agents/{agent_id}`. */
export const openApiPath = (pattern: string) => pattern.replace(/\[([a-z_]+)\]/g, "{$1}");

/** Refuses a contract handed to the wrong wrapper: the auth the handler runs is the one described. */
export function expectAuth(contract: Pick<RouteContract, "method" | "path" | "auth">, kind: AuthKind) {
  if (contract.auth !== kind) {
    throw new Error(`${contract.method} ${contract.path}: a ${contract.auth} contract given to a ${kind} handler`);
  }
}
