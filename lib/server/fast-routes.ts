// The hot public routes served by server.ts in front of Next's router (polling and the
// async accept near the framework's floor). What is skipped is Next's routing and its per-request
// machinery (route matching among ~60 routes, request meta, AsyncLocalStorage scopes); what runs is
// the SAME route handler: the exported GET/POST of the compiled route module, loaded through Next's
// own loader (`requirePage`, a plain `require` of the build's route.js), so Node's module cache hands
// both paths one instance, and Turbopack's runtime one copy of every lib/ module (caches, long-poll
// waiters, reply scheduler, metrics registry). Everything around the handler stays as Next does it:
// the x-forwarded-* request headers it fills in, its filtering of internal headers, its compression
// middleware, its copy of the answer's headers (no Content-Length, chunked body) and its abort
// signal. One thing differs: a POST's body is handed to the route as Node's own stream
// (lib/streams.ts offerRawBody, read by lib/http/body.ts), not as a web stream around it
// (docs/decisions.md 66). server.ts keeps what it does for every request (request metrics, timeouts, shutdown,
// x-awhs-content-length). FAST_ROUTES=0 turns it off; e2e/api/fast-routes.test.ts holds the two
// paths to identical answers. docs/decisions.md "Hot routes in front of Next's router". Next's private
// modules come only through ./next-internals.ts, checked at start-up: the fast path is off when one
// is missing.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { offerRawBody, RAW_BODY_HEADER } from "../streams";
import { fastPathOffLine, loadNextInternals, type ModuleLoader } from "./next-internals";

type Params = Record<string, string>;
type Handler = (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>;

/** A route served here: its pattern (lib/http/routes.ts), the method, and the dynamic segments' positions. */
interface FastRoute {
  pattern: string;
  method: "GET" | "POST";
  /** Index of each `[param]` among the path's segments, and its name. */
  params: [number, string][];
}

/** What the build read from the route contracts (scripts/route-table.mjs contractFacts). */
declare const __AWHS_CONTRACT_FACTS__: { hot: { pattern: string; method: "GET" | "POST" }[] };

/**
 * The hot routes: those whose contract says `hot` (polling a message or a run, and the trigger:
 * async accept, sync, stream), put in by the build.
 */
export const FAST_ROUTE_PATTERNS: ReadonlyArray<{ pattern: string; method: "GET" | "POST" }> =
  // Outside the built server (a unit test loading this module) there is no build's table.
  typeof __AWHS_CONTRACT_FACTS__ === "undefined" ? [] : __AWHS_CONTRACT_FACTS__.hot;

/**
 * A body the route wrapper serialised itself (lib/http/respond.ts `json`), handed over with the
 * Response so that it is written as is rather than read back through the Response's stream.
 * A registered symbol: the route's bundle and server.mjs are separate copies of the code.
 */
export const RESPONSE_TEXT = Symbol.for("awhs.responseText");

/** Headers sendResponse never copies (the body may have been decoded), and those it may repeat. */
const FORBIDDEN = new Set(["content-length", "content-encoding", "transfer-encoding", "x-middleware-set-cookie"]);
const MULTIPLE = new Set(["set-cookie", "www-authenticate", "proxy-authenticate", "vary"]);

export interface FastRoutesOptions {
  /** Next's build folder (its distDir, absolute). */
  distDir: string;
  /** The port Next was given (its x-forwarded-port default). */
  port: number;
  /** The origin of the request URLs handed to the handler (Next's: the listen address). */
  origin: string;
  /** Next's own handling, for a request whose handler could not be loaded (nothing read from it yet). */
  fallback: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** `compress` of next.config (default true). */
  compress?: boolean;
  /** Loads Next's private modules (./next-internals.ts); tests hand in a stand-in. */
  load?: ModuleLoader;
  /** Where the line goes when the fast path cannot start (console.error by default). */
  warn?: (line: string) => void;
}

/**
 * Returns `serve(req, res, pattern)`: true when it took the request (a hot route and its method),
 * false to leave it to Next. Call it where Next's handler would be called, after the server's own
 * per-request work. Returns undefined, after one logged line, when Next's internals it needs are
 * missing or reshaped (./next-internals.ts): then Next serves every request.
 */
export function fastRoutes(opts: FastRoutesOptions) {
  const check = loadNextInternals(opts.load);
  if (!check.ok) {
    (opts.warn ?? console.error)(fastPathOffLine(check.missing));
    return undefined;
  }
  const { compression, ...internals } = check.internals;
  const next = { ...internals, compress: (opts.compress ?? true) ? compression() : undefined };
  const routes = new Map<string, FastRoute>();
  for (const r of FAST_ROUTE_PATTERNS) {
    const params: [number, string][] = [];
    r.pattern.split("/").forEach((seg, i) => {
      const name = /^\[(\w+)\]$/.exec(seg)?.[1];
      if (name) params.push([i, name]);
    });
    routes.set(r.pattern, { ...r, params });
  }
  const handlers = new Map<string, Promise<Handler>>();
  const forwardedPort = String(opts.port);

  /** The route's exported handler, from the same module instance Next runs. */
  const handlerOf = (route: FastRoute) => {
    const key = `${route.method} ${route.pattern}`;
    let h = handlers.get(key);
    if (!h) {
      h = next.requirePage(`${route.pattern}/route`, opts.distDir, true).then(async (mod) => {
        const m = mod as {
          routeModule?: { userland?: Record<string, unknown>; ensureUserland?: () => Promise<void> };
        };
        // The route file is loaded lazily (it may await at top level): as Next does before `userland`.
        await m.routeModule?.ensureUserland?.();
        const fn = m.routeModule?.userland?.[route.method];
        if (typeof fn !== "function") throw new Error(`${route.pattern}: no ${route.method} in the build`);
        return fn as Handler;
      });
      h.catch(() => handlers.delete(key)); // a failed load is retried at the next request
      handlers.set(key, h);
    }
    return h;
  };
  // Loaded now, so that a build without them says so at start (their requests then go to Next).
  for (const route of routes.values()) {
    handlerOf(route).catch((err: unknown) => console.error(`fast route ${route.pattern}: ${(err as Error).message}`));
  }

  return function serve(req: http.IncomingMessage, res: http.ServerResponse, pattern: string | undefined) {
    if (pattern === undefined) return false;
    const route = routes.get(pattern);
    if (!route || route.method !== req.method) return false;
    void answer(route, req, res);
    return true;
  };

  async function answer(route: FastRoute, req: http.IncomingMessage, res: http.ServerResponse) {
    let handler: Handler;
    try {
      handler = await handlerOf(route);
    } catch (err) {
      console.error(`fast route ${route.pattern}: ${(err as Error).message}; answered by Next`);
      opts.fallback(req, res);
      return;
    }
    // What Next's router does before a route handler runs (lib/router-server, base-server).
    next.filterInternalHeaders(req.headers);
    const h = req.headers;
    h["x-forwarded-host"] ??= h.host;
    h["x-forwarded-port"] ??= forwardedPort;
    h["x-forwarded-proto"] ??= "http";
    h["x-forwarded-for"] ??= req.socket.remoteAddress;
    if (next.compress) {
      next.compress(req, res, noop);
      res.once("close", () => {
        if (!res.writableFinished) next.releaseCompressionStream(res);
      });
    }
    req.on("error", noop);
    res.on("error", noop);
    // base-server's setVaryHeader for an app route (set before the handler runs).
    res.appendHeader("vary", APP_VARY);

    // The path's segments, decoded as Next decodes params (refuseUnroutable has refused bad escapes).
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const segments = (q < 0 ? url : url.slice(0, q)).split("/");
    const params: Params = {};
    for (const [i, name] of route.params) params[name] = decodeURIComponent(segments[i] ?? "");

    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const headers = new Headers();
    for (const name in h) {
      const v = h[name];
      if (v === undefined) continue;
      if (typeof v === "string") headers.append(name, v);
      else for (const one of v) headers.append(name, one);
    }
    if (route.method === "POST") {
      // The body is read from Node's own stream (lib/http/body.ts): no web stream around it.
      const id = randomUUID();
      headers.set(RAW_BODY_HEADER, id);
      res.once("close", offerRawBody(id, req));
    }
    let response: Response;
    try {
      const request = new Request(opts.origin + url, { method: req.method, headers, signal: controller.signal });
      response = await handler(request, { params: Promise.resolve(params) });
    } catch (err) {
      // The wrapper answers every error itself: this is a fault of this file, not of the route.
      console.error(`fast route ${route.pattern}: ${(err as Error).stack ?? err}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
      return;
    }
    send(req, res, response);
  }

  /** Next's sendResponse: status, headers (minus the forbidden ones), then the body, chunked. */
  function send(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
    if (res.destroyed) {
      void response.body?.cancel().catch(noop);
      return;
    }
    res.statusCode = response.status;
    res.statusMessage = response.statusText;
    response.headers.forEach((value, name) => {
      if (FORBIDDEN.has(name)) return;
      if (name === "set-cookie") {
        for (const cookie of response.headers.getSetCookie()) res.appendHeader(name, cookie);
      } else if (MULTIPLE.has(name) || res.getHeader(name) === undefined) res.appendHeader(name, value);
    });
    const text = (response as unknown as Record<symbol, string | undefined>)[RESPONSE_TEXT];
    if (!response.body || req.method === "HEAD") {
      res.end();
    } else if (text !== undefined) {
      // The same bytes Next would pipe, without reading them back through the stream: one chunk,
      // then the end (chunked, as Next's answers are).
      if (text.length > 0) {
        res.write(text);
        (res as { flush?: () => void }).flush?.();
      }
      res.end();
    } else {
      next.pipeToNodeResponse(response.body, res).catch((err: unknown) => {
        console.error(`fast route: ${(err as Error).message}`);
        res.destroy();
      });
    }
  }
}

const noop = () => {};

/** The Vary of every app route's answer in Next (RSC_HEADER and the router's headers). */
const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";
