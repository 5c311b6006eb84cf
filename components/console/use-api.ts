// The console's one way to call the organization API (/api/v1/organizations/{org_id}/...) and its
// own session routes (/api/console/...): a call names its route by the contract's key in
// app/api/contracts.ts (`"GET /api/v1/organizations/[org_id]/secrets"`), and the route's contract
// types the path parameters, the query, the body and the answer. The path is written once, in the
// route's folder; the organization is the one the console works in (api.ts, org()). A change of a
// schema then fails the type check of every page that reads or sends the field it changed.
//
//   const secrets = useApiEvery("GET /api/v1/organizations/[org_id]/secrets", "secrets", {});
//   const save = useApiMutation("PUT /api/v1/organizations/[org_id]/secrets/[name]", { onSuccess });
//   save.mutate({ params: { name }, body: { value } });
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
} from "@tanstack/react-query";
import type { z } from "zod";
import type { ContractMap } from "@/app/api/contracts";
import type { CallerInputs, JsonOrEventStream, RouteContract } from "@/lib/http/contract";
import { api, collectPages, type ConsoleApiError, org } from "./api";

const ORG = "/api/v1/organizations/[org_id]";
const CONSOLE = "/api/console";

/** The routes the console calls: the organization API's and the console's own. */
export type ApiRoute = Extract<
  keyof ContractMap,
  `${string} ${typeof ORG}${string}` | `${string} ${typeof CONSOLE}/${string}`
>;
export type ReadRoute = Extract<ApiRoute, `GET ${string}`>;
export type WriteRoute = Exclude<ApiRoute, ReadRoute>;

type ContractOf<K extends ApiRoute> = ContractMap[K];
/** The names of a path's parameters, read from the route's key: `[agent_id]` -> "agent_id" (the organization's is filled in). */
type ParamNames<S extends string> = S extends `${string}[${infer N}]${infer Rest}` ? N | ParamNames<Rest> : never;
type PathParams<K extends ApiRoute> = Exclude<ParamNames<K>, "org_id">;
type QueryIn<K extends ApiRoute> = ContractOf<K> extends CallerInputs<infer Q, infer _B> ? Q : never;
type BodyIn<K extends ApiRoute> = ContractOf<K> extends CallerInputs<infer _Q, infer B> ? B : never;

/** A query as the URL carries it: the schema's fields, each given as text, a number or a flag ("" and undefined: left out). */
type QueryArg<Q> = { [F in keyof Q]?: string | number | boolean | null };

/** What one call sends: the path's parameters (but the organization), the query and, for a write, the body. */
export type Call<K extends ApiRoute> = ([PathParams<K>] extends [never]
  ? { params?: undefined }
  : { params: { [N in PathParams<K>]: string | number } }) &
  ([QueryIn<K>] extends [undefined] ? { query?: undefined } : { query?: QueryArg<NonNullable<QueryIn<K>>> }) &
  (K extends ReadRoute
    ? unknown
    : [BodyIn<K>] extends [undefined]
      ? { body?: undefined }
      : object extends BodyIn<K>
        ? { body?: BodyIn<K> }
        : { body: BodyIn<K> });

type Success<R> = R extends { 200: infer A }
  ? A
  : R extends { 201: infer A }
    ? A
    : R extends { 202: infer A }
      ? A
      : undefined;
type JsonOf<A> = A extends z.ZodType ? z.output<A> : A extends JsonOrEventStream<infer J> ? z.output<J> : undefined;

/** The JSON answer of a route's success (200, else 201, else 202), as its contract's schema gives it. */
export type Answer<K extends ApiRoute> =
  ContractOf<K> extends RouteContract<infer _P, unknown, unknown, infer R> ? JsonOf<Success<R>> : never;

/** The JSON answer of one status of a route that has several (a dry run's 200 and a creation's 201). */
export type AnswerOf<K extends ApiRoute, S extends 200 | 201 | 202> =
  ContractOf<K> extends RouteContract<infer _P, unknown, unknown, infer R>
    ? R extends { [N in S]: infer A }
      ? JsonOf<A>
      : never
    : never;

const PARAM = /^\[([a-z_]+)\]$/;
const splitRoute = (route: ApiRoute) => {
  const space = route.indexOf(" ");
  return { method: route.slice(0, space), pattern: route.slice(space + 1) };
};

/** The query's fields that say something ("" and undefined say nothing), or undefined when none does. */
function cleanQuery(query: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!query) return undefined;
  const kept = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return kept.length ? Object.fromEntries(kept.map(([k, v]) => [k, String(v)])) : undefined;
}

/** The URL of a call: the route's path with its parameters and the console's organization filled in, then the query. */
export function urlOf<K extends ApiRoute>(route: K, call: Call<K>): string {
  const { pattern } = splitRoute(route);
  const params = (call.params ?? {}) as Record<string, string | number | undefined>;
  const rest = pattern.startsWith(ORG) ? pattern.slice(ORG.length) : pattern;
  const path = rest
    .split("/")
    .map((segment) => {
      const name = PARAM.exec(segment)?.[1];
      if (!name) return segment;
      const value = params[name];
      if (value === undefined || value === "") throw new Error(`${route}: no ${name} given`);
      return encodeURIComponent(String(value));
    })
    .join("/");
  const query = cleanQuery(call.query as Record<string, unknown> | undefined);
  const url = pattern.startsWith(ORG) ? org(path) : path;
  return query ? `${url}?${new URLSearchParams(query)}` : url;
}

/**
 * The cache key of a route's answers: its path's segments after the organization (or after
 * /api/console, under "console"), parameters filled in, then the query when it says something.
 * Without the parameters it stops at the first one missing, and is then the prefix of everything
 * below: `apiKey("GET .../agents/[agent_id]", { params: { agent_id } })` covers the agent, its
 * versions, files and evaluations, so a write invalidates by the key of what it changed.
 */
export function apiKey<K extends ApiRoute>(route: K, call: Partial<Call<K>> = {}): QueryKey {
  const { pattern } = splitRoute(route);
  const params = (call.params ?? {}) as Record<string, string | number | undefined>;
  const key: unknown[] = pattern.startsWith(ORG) ? [] : ["console"];
  const rest = pattern.startsWith(ORG) ? pattern.slice(ORG.length) : pattern.slice(CONSOLE.length);
  for (const segment of rest.split("/").filter(Boolean)) {
    const name = PARAM.exec(segment)?.[1];
    if (!name) key.push(segment);
    else if (params[name] === undefined || params[name] === "") return key;
    else key.push(String(params[name]));
  }
  const query = cleanQuery(call.query as Record<string, unknown> | undefined);
  return query ? [...key, query] : key;
}

/** One call: the route's method, its URL and (for a write) its body as JSON; the answer typed by the contract. */
export function request<K extends ApiRoute>(route: K, call: Call<K>, signal?: AbortSignal): Promise<Answer<K>> {
  const { method } = splitRoute(route);
  const body = (call as { body?: unknown }).body;
  const json = method === "GET" || method === "DELETE" ? body : (body ?? {});
  return api<Answer<K>>(urlOf(route, call), { method, signal, ...(json !== undefined ? { json } : {}) });
}

/**
 * Options a page may add to a read (polling, placeholders, enabling); the key and the fetch come from
 * the route. `version`: a value the read is fetched again for when it changes, and only then (the run
 * page's items and approvals follow the run's status and counts), appended to the key.
 */
export type ReadOptions<T> = Omit<UseQueryOptions<T, ConsoleApiError, T, QueryKey>, "queryKey" | "queryFn"> & {
  version?: string;
};

/** A read of one route, cached under apiKey(route, call) (and its `version`). */
export function useApi<K extends ReadRoute>(route: K, call: Call<K>, options: ReadOptions<Answer<K>> = {}) {
  const { version, ...rest } = options;
  const key = apiKey(route, call);
  return useQuery<Answer<K>, ConsoleApiError>({
    queryKey: version === undefined ? key : [...key, version],
    queryFn: ({ signal }) => request(route, call, signal),
    ...rest,
  });
}

/** A page of a paged list (`cursor`: a page's `next_cursor`, "" for the first): the page before stays shown while the next loads. */
export const useApiPage = <K extends ReadRoute>(route: K, call: Call<K>, options: ReadOptions<Answer<K>> = {}) =>
  useApi(route, call, { placeholderData: keepPreviousData, ...options });

type Paged = { next_cursor: string | null };
type ListField<K extends ReadRoute> = {
  [F in keyof Answer<K>]: Answer<K>[F] extends unknown[] ? F : never;
}[keyof Answer<K>] &
  string;

/** A paged list whole, following `next_cursor` (`query.limit` a page, 500 unless given): the console's short lists that show everything. */
export function useApiEvery<K extends ReadRoute>(
  route: K,
  field: Answer<K> extends Paged ? ListField<K> : never,
  call: Call<K>,
  options: ReadOptions<Answer<K>> = {},
) {
  const { version, ...rest } = options;
  return useQuery<Answer<K>, ConsoleApiError>({
    queryKey: [...apiKey(route, call), "every", ...(version === undefined ? [] : [version])],
    queryFn: ({ signal }) =>
      collectPages(
        (cursor) =>
          request(
            route,
            { ...call, query: { limit: 500, ...(call.query as object), cursor: cursor ?? undefined } } as Call<K>,
            signal,
          ) as Promise<Answer<K> & Paged>,
        field,
      ),
    ...rest,
  });
}

/**
 * A write's dry run read like a query (`body` with `dry_run: true`: what a publish would change),
 * kept under the route's path, then "preview" and the body: read again when the body changes.
 */
export function useApiPreview<K extends WriteRoute>(route: K, call: Call<K>, options: ReadOptions<Answer<K>> = {}) {
  const { version: _version, ...rest } = options;
  return useQuery<Answer<K>, ConsoleApiError>({
    queryKey: [...apiKey(route, call), "preview", (call as { body?: unknown }).body ?? null],
    queryFn: ({ signal }) => request(route, call, signal),
    ...rest,
  });
}

/** A paged list read page after page into one ("Show older"): the next page is asked with the last one's `next_cursor`. */
export function useApiPages<K extends ReadRoute>(
  route: K,
  call: Call<K>,
  options: { refetchInterval?: (pages: Answer<K>[]) => number | false } = {},
) {
  return useInfiniteQuery({
    queryKey: [...apiKey(route, call), "pages"],
    queryFn: ({ pageParam, signal }) =>
      request(
        route,
        { ...call, query: { ...(call.query as object), cursor: pageParam || undefined } } as Call<K>,
        signal,
      ),
    initialPageParam: "",
    getNextPageParam: (last: Answer<K>) => (last as unknown as Paged).next_cursor ?? undefined,
    refetchInterval: options.refetchInterval ? (q) => options.refetchInterval!(q.state.data?.pages ?? []) : undefined,
  });
}

/** A write of one route: `mutate(call)` sends it; the page adds its toasts and invalidations. */
export function useApiMutation<K extends WriteRoute, Context = unknown>(
  route: K,
  options: Omit<UseMutationOptions<Answer<K>, ConsoleApiError, Call<K>, Context>, "mutationFn"> = {},
) {
  return useMutation<Answer<K>, ConsoleApiError, Call<K>, Context>({
    mutationFn: (call) => request(route, call),
    ...options,
  });
}
