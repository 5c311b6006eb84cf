// Production server: Next's request handler behind Node's HTTP server, so that request timeouts
// can differ per route. Uploads may last an hour; every other request is cut after
// REQUEST_TIMEOUT_MS (5 minutes), so slow clients cannot hold connections on other routes.
// On PostgreSQL it runs WEB_CONCURRENCY processes (default: one per core) on one port with
// node:cluster, each with its own in-process worker; the embedded database allows one process.
// Limits on slow and oversized clients (HEADERS_TIMEOUT_MS, MAX_HEADER_BYTES, KEEP_ALIVE_TIMEOUT_MS)
// are set here and described in docs/deploy.md. A method a route does not export gets the error
// envelope with `Allow` (lib/server/node-server.ts), from the route table the build puts in.
// `npm run build` bundles this file into dist/server.mjs (scripts/prepare.mjs); `npm start` runs it.
import cluster from "node:cluster";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import next from "next";
// The build folder Next serves from, as Next reads it (NEXT_DIST_DIR, default .next).
import nextConfig from "./next.config.js";
import { authSecret } from "./lib/auth/secret-files";
import { env } from "./lib/env";
import {
  answerRequestTimeout,
  clientErrorHandler,
  lingerOnEarlyAnswer,
  decideForwardedOrigin,
  envelopeMethodNotAllowed,
  normalizeApiPath,
  refuseUnroutable,
} from "./lib/server/node-server";
import { fastRoutes } from "./lib/server/fast-routes";
import { isPagePath, securityHeaders } from "./lib/http/security-headers";
import { routeEntries, routeMatcher, type RouteFile } from "./lib/http/routes";
import { loadStartUp, startUpLateLine, startUpMessage } from "./lib/server/next-internals";
import { markShuttingDown, shutdownSteps } from "./lib/lifecycle";
import { metrics, observeRequest, serveClusterMetrics } from "./lib/metrics";
import { offerRawBody, RAW_BODY_HEADER } from "./lib/streams";

/** Every app/**\/route.ts and the methods it exports, put in by the build (scripts/route-table.mjs). */
declare const __AWS_ROUTE_TABLE__: RouteFile[];
const routes = routeEntries(__AWS_ROUTE_TABLE__);
/** What the build read from the route contracts (scripts/route-table.mjs contractFacts). */
declare const __AWHS_CONTRACT_FACTS__: { long: string[] };

const settings = env();
const {
  PORT: port,
  HOST: hostname,
  UPLOAD_TIMEOUT_MS: uploadTimeoutMs,
  REQUEST_TIMEOUT_MS: requestTimeoutMs,
  HEADERS_TIMEOUT_MS: headersTimeoutMs,
  MAX_HEADER_BYTES: maxHeaderBytes,
  KEEP_ALIVE_TIMEOUT_MS: keepAliveTimeoutMs,
  SHUTDOWN_TIMEOUT_MS: shutdownTimeoutMs,
  FAST_ROUTES: fastRoutesOn,
} = settings;
try {
  authSecret(settings); // refuse to start without a session key rather than fail at the first sign-in
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
}
/** The route patterns whose contract says `timeout: "long"` (uploads, multipart and tus) get UPLOAD_TIMEOUT_MS. */
const LONG_ROUTES = new Set(__AWHS_CONTRACT_FACTS__.long);
/** The multipart upload reads Node's own request stream (lib/streams.ts, offerRawBody). */
const MULTIPART_UPLOAD = /^\/api\/agents\/[^/]+\/upload\/?(\?|$)/;
/** Whether the site is served over https (PUBLIC_URL): then the answers carry HSTS. */
const https = settings.PUBLIC_URL?.startsWith("https:") ?? false;
/** The project root: this file runs from dist/. */
const root = path.resolve(import.meta.dirname, "..");

/** How many server processes: several only on PostgreSQL (PGlite allows one process per folder). */
const processes = settings.DATABASE_URL ? (settings.WEB_CONCURRENCY ?? os.availableParallelism()) : 1;
if (!settings.DATABASE_URL && (settings.WEB_CONCURRENCY ?? 1) > 1) {
  console.log("WEB_CONCURRENCY is ignored on the embedded database: it allows one process.");
}

if (processes > 1 && cluster.isPrimary) {
  await supervise(processes);
} else {
  await serve();
}

/** The primary: forks the server processes, replaces one that dies, stops them all on a signal. */
async function supervise(count: number) {
  console.log(`Agent Webhook Service: starting ${count} server processes`);
  let stopping = false;
  // A scrape of /api/metrics reaches one process: it asks here for the sum of all (lib/metrics).
  serveClusterMetrics();
  /** Processes that started (they listen only once start-up succeeded). */
  const listening = new Set<number>();
  cluster.on("listening", (worker) => listening.add(worker.id));
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    if (!listening.has(worker.id)) {
      // It failed to start (it printed why): another would fail the same way. Stop, exit 1, so that
      // the supervisor sees it (docs/deploy.md, Start-up and exit codes).
      console.error(`server process ${worker.process.pid} failed to start (${signal ?? code}); stopping`);
      stop("SIGTERM", 1);
      return;
    }
    console.log(`server process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    const done = () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(exitCode);
    cluster.on("exit", done);
    done();
    // The processes bound their own graceful shutdown (SHUTDOWN_TIMEOUT_MS); this bounds a stuck one.
    setTimeout(() => process.exit(exitCode), shutdownTimeoutMs + 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/**
 * Start-up (lib/boot.ts through instrumentation.ts: the database and its lock, the migrations, the
 * first start, the worker) before the server listens. Next would run it at the first request and
 * answer that request and every later one 500 when it fails, so that no supervisor would restart the
 * process: a failure here prints its message and exits 1 (docs/deploy.md, Start-up and exit codes).
 */
async function startUp() {
  const check = loadStartUp();
  if (!check.ok) {
    console.error(startUpLateLine(check.missing));
    return;
  }
  try {
    await check.register(root, nextConfig.distDir ?? ".next");
  } catch (err) {
    console.error(`error: ${startUpMessage(err)}`);
    // The stack helps with an unexpected failure; a held data folder is told in full by its message.
    if ((err as Error).name !== "DataDirLockedError") console.error((err as Error).stack);
    process.exit(1);
  }
}

async function serve() {
  const app = next({ dev: false, hostname, port, dir: root });
  // The metrics exist before the first request, and a cluster process answers the primary's
  // collection requests from the start.
  metrics();
  const routeOf = routeMatcher(routes);
  /** Set on SIGTERM: answers from then on close their connection. */
  let stopping = false;
  const handle = app.getRequestHandler();
  await app.prepare();
  await startUp();
  // The hot public routes (polling, triggers) go to their route handler directly, in front of
  // Next's router, with the same answers (lib/server/fast-routes.ts); FAST_ROUTES=0 leaves them to Next,
  // and so does tracing (Next makes the request spans, with the route pattern).
  const fast =
    fastRoutesOn && !settings.OTEL_EXPORTER_OTLP_ENDPOINT
      ? fastRoutes({
          distDir: path.join(root, nextConfig.distDir ?? ".next"),
          port,
          origin: `http://${hostname}:${port}`,
          fallback: (req, res) => {
            envelopeMethodNotAllowed(req, res, routes);
            void handle(req, res);
          },
        })
      : undefined;

  // Next drops Content-Length from route handler responses (it may have decoded the body). Routes
  // that stream a body of known length (file downloads) declare it in x-awhs-content-length; it
  // becomes the real header here, so clients get progress and can detect truncation.
  function declaredLength(res: http.ServerResponse) {
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
      const declared = res.getHeader("x-awhs-content-length");
      if (declared !== undefined) {
        res.removeHeader("x-awhs-content-length");
        if (!res.hasHeader("content-encoding")) res.setHeader("content-length", declared);
      }
      // Shutting down: the client must not send another request on this connection.
      if (stopping) res.setHeader("connection", "close");
      return writeHead.apply(this, args);
    } as typeof writeHead;
  }

  const server = http.createServer(
    {
      // Request line and headers above this are refused with 431 before any route runs.
      maxHeaderSize: maxHeaderBytes,
      // How often Node looks for connections past headersTimeout (its default, 30 s, would let a
      // slow-header client hold a connection up to headersTimeout + 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
      // Request metrics: duration by method, route pattern and status (499: the client left first).
      const started = performance.now();
      normalizeApiPath(req);
      const pattern = routeOf(req.url ?? "/");
      // The metrics' `route` label: the route's pattern, or one of two fixed values (bounded).
      const route = pattern ?? (req.url?.startsWith("/_next/") ? "/_next/*" : "other");
      res.once("close", () => observeRequest(req.method, route, res.writableFinished ? res.statusCode : 499, started));
      // The client's address for routes that need it (sign-in lockout); a client cannot set it.
      req.headers["x-awhs-client-ip"] = req.socket.remoteAddress ?? "";
      // One address for the caller, as lib/http/base-url.ts decides it (a client's X-Forwarded-* are
      // believed only with TRUST_PROXY): Next, Auth.js and the console all read it from here.
      decideForwardedOrigin(req);
      // The browser security headers, on every answer (lib/http/security-headers.ts): set before
      // anything answers, so every later writeHead keeps them. A page gets a fresh script nonce;
      // Next reads it from the request's policy and puts it on its own scripts.
      const pathname = (req.url ?? "/").split("?")[0]!;
      const nonce = isPagePath(pathname) ? randomBytes(16).toString("base64") : undefined;
      const secure = securityHeaders({ pathname, https, nonce });
      for (const [name, value] of Object.entries(secure)) res.setHeader(name, value);
      if (nonce) req.headers["content-security-policy"] = secure["content-security-policy"];
      else delete req.headers["content-security-policy"];
      // A method or a path Next cannot take (it would answer a bare 500): the envelope instead.
      if (refuseUnroutable(req, res, routes)) return;
      delete req.headers[RAW_BODY_HEADER];
      if (req.method === "POST" && MULTIPART_UPLOAD.test(req.url ?? "")) {
        const id = randomUUID();
        req.headers[RAW_BODY_HEADER] = id;
        res.once("close", offerRawBody(id, req));
      }
      const limit = pattern !== undefined && LONG_ROUTES.has(pattern) ? uploadTimeoutMs : requestTimeoutMs;
      const timer = setTimeout(() => {
        answerRequestTimeout(req, res, limit);
        req.socket.destroy();
      }, limit);
      res.once("close", () => clearTimeout(timer));
      declaredLength(res);
      lingerOnEarlyAnswer(req, res);
      if (fast?.(req, res, pattern)) return;
      envelopeMethodNotAllowed(req, res, routes);
      handle(req, res);
    },
  );
  // Node's own whole-request limit (5 min) would cut uploads: the per-request timer above replaces
  // it (REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS), which also bounds a slow body.
  server.requestTimeout = 0;
  // A client must send all its headers within HEADERS_TIMEOUT_MS (slowloris): 408, then closed.
  server.headersTimeout = headersTimeoutMs;
  // Longer than clients and proxies keep idle connections (undici: the server's hint less 1 s; most
  // proxies 60 s), so that the client always closes an idle connection first. The other way round, a
  // request sent just as the server closes the connection fails with "other side closed".
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // 431, 408 and 400 answered by Node itself (oversized or slow headers, malformed requests), in
  // the error envelope with an X-Request-Id.
  server.on(
    "clientError",
    clientErrorHandler({ maxHeaderBytes, headersTimeoutMs, headers: securityHeaders({ pathname: "/", https }) }),
  );

  server.listen(port, hostname, () => {
    console.log(`Agent Webhook Service listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
  });

  /**
   * Graceful shutdown, bounded by SHUTDOWN_TIMEOUT_MS (docs/deploy.md): no new connections and
   * /api/ready answers 503; requests in flight finish (their connections close after the answer,
   * idle ones at once) while the worker takes no more jobs and replies being produced here finish
   * (lib/boot.ts); then running jobs get what is left of the bound, the database closes, exit 0.
   */
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    markShuttingDown();
    console.log(`${signal}: shutting down`);
    const deadline = performance.now() + shutdownTimeoutMs;
    const left = () => Math.max(0, deadline - performance.now());
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A connection whose answer has just gone out is idle: closed within 100 ms.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    await Promise.race([Promise.all([closed, shutdownSteps.drain.get()?.(left())]), sleep(left())]);
    clearInterval(idle);
    await Promise.race([shutdownSteps.shutdown.get()?.(left()), sleep(left() + 2_000)]);
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
