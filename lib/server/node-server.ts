// Answers the production server (server.ts) writes itself, around Next's handler, in the same
// error envelope and with an X-Request-Id like every route's: a method a route does not serve
// (405, with `Allow`), a method or path Next cannot take at all (405, 400), a request that took too
// long (408), and requests Node refuses before any route sees them (oversized headers 431, headers
// too slow 408, malformed 400); and the lingering close after an answer sent before its body arrived.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, type ErrorCode } from "../errors";
import { newId } from "../ids";
import { log } from "../log";
import { errorBody } from "../http/respond";
import { baseUrlFrom } from "../http/base-url";
import { allowedAt, matchRoute, ROUTE_METHODS, type RouteEntry } from "../http/routes";

function envelope(code: ErrorCode, message: string, details?: Record<string, unknown>) {
  const requestId = newId("req");
  const err = new ApiError(code, message, details);
  return { requestId, status: err.status, body: JSON.stringify(errorBody(err, requestId)) };
}

/** The 405 envelope for `req.method` at `pathname`, with the methods its route serves (`Allow`). */
function methodNotAllowed(req: http.IncomingMessage, table: readonly RouteEntry[], pathname: string) {
  const route = matchRoute(table, pathname);
  const allow = route ? allowedAt(route, pathname) : undefined;
  const e = envelope(
    "method_not_allowed",
    allow
      ? `${req.method} is not allowed here; this route serves ${allow.join(", ")}.`
      : `${req.method} is not allowed here.`,
    allow ? { allowed_methods: allow } : undefined,
  );
  return { e, allow };
}

function logLine(req: http.IncomingMessage, status: number, requestId: string, started: number) {
  log.info(
    {
      request_id: requestId,
      method: req.method,
      path: (req.url ?? "").split("?")[0],
      status,
      ms: Math.round(performance.now() - started),
    },
    "request",
  );
}

/** Whether `writeHead`'s arguments carry headers of their own that name a Content-Type (or may). */
function headersArgNamesType(args: unknown[]): boolean {
  return args.some(
    (a) =>
      Array.isArray(a) ||
      (typeof a === "object" && a !== null && Object.keys(a).some((k) => k.toLowerCase() === "content-type")),
  );
}

const isBare = (chunk: unknown) =>
  chunk === undefined ||
  typeof chunk === "function" ||
  ((typeof chunk === "string" || chunk instanceof Uint8Array) && chunk.length === 0);

/**
 * Next answers a method that a route file does not export with an empty 405 and no `Allow`.
 * This turns that answer, and only that one (status 405, no Content-Type, no body), into the
 * error envelope with `Allow` listing what the route serves, as found in the build's route table.
 * The headers are set when the status line is written (Next's compression wraps `end` and writes
 * the headers itself), the body when the response ends without one.
 */
export function envelopeMethodNotAllowed(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  table: readonly RouteEntry[],
) {
  const started = performance.now();
  let pending: string | undefined;
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const status = typeof args[0] === "number" ? args[0] : res.statusCode;
    if (status === 405 && !res.headersSent && !res.hasHeader("content-type") && !headersArgNamesType(args.slice(1))) {
      const { e, allow } = methodNotAllowed(req, table, (req.url ?? "/").split("?")[0]!);
      if (allow) res.setHeader("allow", allow.join(", "));
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.setHeader("cache-control", "no-store");
      res.setHeader("x-request-id", e.requestId);
      pending = e.body;
      logLine(req, 405, e.requestId, started);
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;

  const write = res.write;
  res.write = function (this: http.ServerResponse, ...args: unknown[]) {
    if (!isBare(args[0])) pending = undefined; // the route wrote a body of its own: leave it
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;

  const end = res.end;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    // A bare end() writes the status line on its way: write it first, so that the body can follow.
    if (!res.headersSent && res.statusCode === 405 && isBare(args[0])) res.writeHead(405);
    if (pending !== undefined && isBare(args[0])) {
      const body = pending;
      pending = undefined;
      const done = args.find((a) => typeof a === "function") as (() => void) | undefined;
      return end.call(this, body, "utf8", done); // HEAD gets the headers only: Node drops the body
    }
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.end;
}

/** Writes an envelope answer of the server's own (HEAD gets the headers only: Node drops the body). */
function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  e: ReturnType<typeof envelope>,
  headers: Record<string, string> = {},
) {
  const started = performance.now();
  res.writeHead(e.status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-request-id": e.requestId,
    "content-length": Buffer.byteLength(e.body),
  });
  res.end(e.body);
  logLine(req, e.status, e.requestId, started);
}

const NEXT_METHODS: ReadonlySet<string> = new Set(ROUTE_METHODS);

/** Whether every percent-escape of the path decodes, as UTF-8 (Next decodes it and throws otherwise). */
function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Requests Next cannot take, answered before it sees them (it would answer a bare 500 or 400): a
 * method it does not know (TRACE, PROPFIND, ...: 405 with the route's `Allow`), and a path whose
 * percent-escapes are not UTF-8 (`%zz`, `%ff`, `%ed%a0%80`: 400). True when it answered.
 */
export function refuseUnroutable(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  table: readonly RouteEntry[],
): boolean {
  const pathname = (req.url ?? "/").split("?")[0]!;
  if (!NEXT_METHODS.has(req.method ?? "")) {
    const { e, allow } = methodNotAllowed(req, table, pathname);
    answer(req, res, e, allow ? { allow: allow.join(", ") } : {});
    return true;
  }
  if (!decodablePath(pathname)) {
    answer(req, res, envelope("invalid_request", "The request path has a percent-escape that is not valid UTF-8."));
    return true;
  }
  return false;
}

/**
 * An API path with a trailing slash or an empty segment is served as its normal form (what Next's
 * 308 redirect would lead to) rather than redirected: Next's redirect repeats the whole URL in two
 * headers (Location, Refresh), so a long query string made an answer whose headers common clients
 * refuse to read (over 16 KiB; found by the route fuzzing).
 */
export function normalizeApiPath(req: http.IncomingMessage) {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  if (!pathname.startsWith("/api/")) return;
  const normal = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  if (normal !== pathname) req.url = normal + (q < 0 ? "" : url.slice(q));
}

/**
 * Next, Auth.js (its redirects, cookies' `Secure` flag, SSO's redirect_uri) and the console's
 * same-origin check all read the caller's address from X-Forwarded-Host and X-Forwarded-Proto; Next
 * fills them in from Host when absent and builds a route's request URL from the listen address
 * (http://0.0.0.0:PORT). They are set here to what lib/http/base-url.ts decides (PUBLIC_URL, a
 * trusted proxy's headers, else Host over http, else the listen address's public form), so that
 * every one of them sees the same address, a client cannot forge it, and a malformed Host (which
 * Auth.js would throw on) never reaches them.
 */
export function decideForwardedOrigin(req: http.IncomingMessage) {
  const base = new URL(
    baseUrlFrom((name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    }),
  );
  const https = base.protocol === "https:";
  req.headers["x-forwarded-host"] = base.host;
  req.headers["x-forwarded-proto"] = https ? "https" : "http";
  req.headers["x-forwarded-port"] = base.port || (https ? "443" : "80");
}

/** The answer to a request cut by the per-request time limit (REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS). */
export function answerRequestTimeout(req: http.IncomingMessage, res: http.ServerResponse, limitMs: number) {
  if (res.headersSent) return;
  const e = envelope("request_timeout", `The request took longer than the server's limit (${limitMs} ms).`);
  res.writeHead(e.status, {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": e.requestId,
    "content-length": Buffer.byteLength(e.body),
    connection: "close",
  });
  res.end(e.body);
  log.warn(
    { request_id: e.requestId, method: req.method, path: (req.url ?? "").split("?")[0], status: 408 },
    "request",
  );
}

/** Errors of Node's HTTP parser and connection checks, as Node's own default maps them. */
function clientErrorAnswer(code: string | undefined, limits: { maxHeaderBytes: number; headersTimeoutMs: number }) {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return envelope("headers_too_large", `The request's headers exceed ${limits.maxHeaderBytes} bytes.`, {
        limit_bytes: limits.maxHeaderBytes,
      });
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return envelope("payload_too_large", "The request's chunk extensions are too large.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return envelope("request_timeout", `The request's headers did not arrive within ${limits.headersTimeoutMs} ms.`);
    default:
      return envelope("invalid_request", "Malformed HTTP request.");
  }
}

/**
 * The server's `clientError` listener: what Node would answer (431, 408, 400), in the envelope.
 * As in Node's default, nothing is written once a response has begun on the connection, and the
 * connection is closed.
 */
export function clientErrorHandler(limits: {
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  /** The browser security headers every answer carries (lib/http/security-headers.ts). */
  headers?: Record<string, string>;
}) {
  return (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    if (err.code !== "ECONNRESET" && socket.writable && (!inFlight || !inFlight.headersSent)) {
      const e = clientErrorAnswer(err.code, limits);
      // An answer to HEAD has no body: a client reading one would take the body for garbage.
      const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
      socket.write(
        `HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? "Error"}\r\n` +
          "Content-Type: application/json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(e.body)}\r\n` +
          `X-Request-Id: ${e.requestId}\r\n` +
          Object.entries(limits.headers ?? {})
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join("") +
          "Connection: close\r\n\r\n" +
          (head ? "" : e.body),
      );
      log.warn({ request_id: e.requestId, status: e.status, reason: err.code ?? err.message }, "refused request");
    }
    socket.destroy();
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Payload Too Large",
  431: "Request Header Fields Too Large",
};

/** How long, and how many more bytes, a closing connection reads of a body answered before it ended. */
export const LINGER = { ms: 2_000, bytes: 16 * 1024 * 1024 };

/**
 * A lingering close, as nginx's: when an answer goes out before the request's body has all arrived
 * (413 on a declared length, 401 before the body is read) on a connection that closes after it (the
 * client asked for `Connection: close`), Node would destroy the socket as soon as the answer is
 * written, and the body's bytes still arriving make the kernel reset the connection, which the
 * client may see (EPIPE, ECONNRESET) before it reads the answer. Instead the server ends its side
 * and goes on reading and dropping the body until the client closes, for at most `LINGER`.
 */
export function lingerOnEarlyAnswer(req: http.IncomingMessage, res: http.ServerResponse, limits = LINGER) {
  // A request without a body (most: GET, polls) is complete once its headers are read.
  const { "content-length": length, "transfer-encoding": chunked } = req.headers;
  if (chunked === undefined && (length === undefined || length === "0")) return;
  res.once("prefinish", () => {
    // A connection kept alive is not closed: Node reads the rest of the body off it itself.
    const closing = (res as { _last?: boolean })._last === true || !res.shouldKeepAlive;
    const socket = req.socket as (Duplex & { destroySoon?: () => void }) | null;
    if (req.complete || !closing || !socket || socket.destroyed) return;
    // Read the socket's bytes here (a listener of its own takes them from Node's parser, which
    // stops reading once the answer is out), and drop them.
    let read = 0;
    const stop = () => socket.destroy();
    socket.on("data", (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.bytes) stop();
    });
    // Node's server calls destroySoon() once the answer is written, only when the connection closes.
    socket.destroySoon = () => {
      const timer = setTimeout(stop, limits.ms);
      timer.unref();
      socket.once("close", () => clearTimeout(timer));
      socket.once("end", stop);
      socket.end();
      socket.resume();
    };
  });
}
