// The production server's own answers, on a plain node:http server wired as server.ts wires it,
// with a stand-in for Next's handler (an unexported method: an empty 405, as Next answers it).
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientErrorHandler, envelopeMethodNotAllowed, lingerOnEarlyAnswer } from "./node-server";
import { routeEntries } from "../http/routes";

const routes = routeEntries([
  { file: "app/api/health/route.ts", methods: ["GET"] },
  { file: "app/api/own/route.ts", methods: ["POST"] },
]);
const limits = { maxHeaderBytes: 2048, headersTimeoutMs: 300 };
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer({ maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: 50 }, (req, res) => {
    envelopeMethodNotAllowed(req, res, routes);
    if (req.url?.endsWith("?compressed")) {
      // As Next's compression does: its own end() writes the status line before the original end.
      const end = res.end;
      res.end = function (this: http.ServerResponse, ...args: unknown[]) {
        if (!this.headersSent) this.writeHead(this.statusCode);
        return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
      } as typeof res.end;
    }
    if (req.url === "/api/own") {
      // A route's own 405 (with a body of its own) is left as it is.
      res.writeHead(405, { "content-type": "text/plain" });
      res.end("mine");
    } else if (req.method === "GET") {
      res.end("ok");
    } else {
      res.statusCode = 405;
      res.end();
    }
  });
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = 0;
  server.on("clientError", clientErrorHandler(limits));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

function send(method: string, path: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Writes raw bytes and collects what comes back until the server closes the connection. */
function raw(data: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(data));
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}

describe("an unexported method", () => {
  it.each(["/api/health?x=1", "/api/health?compressed"])(
    "gets 405 in the envelope with Allow and X-Request-Id (%s)",
    async (path) => {
      const res = await send("DELETE", path);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = JSON.parse(res.body);
      expect(body.error).toMatchObject({
        code: "method_not_allowed",
        details: { allowed_methods: ["GET", "HEAD", "OPTIONS"] },
      });
      expect(body.error.message).toContain("DELETE");
      expect(body.error.request_id).toMatch(/^req_/);
      expect(res.headers["x-request-id"]).toBe(body.error.request_id);
    },
  );

  it("on HEAD gets the same headers and no body", async () => {
    const res = await send("HEAD", "/api/nowhere");
    expect(res.status).toBe(405);
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
    expect(res.headers.allow).toBeUndefined(); // no route in the table matches: no Allow to tell
    expect(res.body).toBe("");
  });

  it("leaves other answers alone, a route's own 405 included", async () => {
    expect(await send("GET", "/api/health")).toMatchObject({ status: 200, body: "ok" });
    const own = await send("POST", "/api/own");
    expect([own.status, own.body, own.headers.allow]).toEqual([405, "mine", undefined]);
  });
});

describe("requests Node refuses", () => {
  it("answers headers over the limit with 431 in the envelope and closes", async () => {
    const got = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(4096)}\r\n\r\n`);
    expect(got).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4));
    expect(body.error).toMatchObject({ code: "headers_too_large", details: { limit_bytes: 2048 } });
    expect(got).toContain(`X-Request-Id: ${body.error.request_id}`);
  });

  it("answers a malformed request with 400 in the envelope", async () => {
    const got = await raw("NOT HTTP AT ALL\r\n\r\n");
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4)).error.code).toBe("invalid_request");
  });

  it("cuts a client whose headers never finish with 408", async () => {
    const got = await raw("GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4)).error.code).toBe("request_timeout");
  });
});

describe("an answer sent before the body has arrived, on a connection that closes after it", () => {
  // The client sends the headers and part of the body, reads the whole answer, and only then sends
  // the rest: without the lingering close, Node has destroyed the socket by then and the rest meets
  // a reset (EPIPE or ECONNRESET), the race a client sending a large body loses now and then.
  async function earlyAnswer(linger: boolean) {
    const early = http.createServer((req, res) => {
      if (linger) lingerOnEarlyAnswer(req, res, { ms: 5_000, bytes: 1024 * 1024 });
      res.writeHead(413, { "content-type": "application/json" });
      res.end('{"error":{"code":"payload_too_large"}}');
    });
    await new Promise<void>((r) => early.listen(0, "127.0.0.1", r));
    const { port: earlyPort } = early.address() as net.AddressInfo;
    try {
      const socket = net.connect(earlyPort, "127.0.0.1");
      socket.setNoDelay(true);
      const outcome = await new Promise<{ answer: string; error?: string; serverEnded: boolean }>((resolve) => {
        let answer = "";
        let serverEnded = false;
        let error: string | undefined;
        socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code));
        socket.on("end", () => (serverEnded = true));
        socket.on("close", () => resolve({ answer, error, serverEnded }));
        socket.on("data", (chunk: Buffer) => {
          const before = answer;
          answer += chunk.toString("latin1");
          if (!before.includes("payload_too_large") && answer.includes("payload_too_large")) {
            // The whole answer is here: the rest of the body, in pieces, then the client's end.
            const piece = Buffer.alloc(64 * 1024, 97);
            const rest = () => {
              for (let i = 0; i < 7; i++) socket.write(piece);
              socket.end();
            };
            // Once the server's side has ended (its FIN), as a client still sending would go on.
            if (serverEnded) rest();
            else socket.once("end", rest);
          }
        });
        socket.write(
          "POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + `Content-Length: ${8 * 64 * 1024}\r\n\r\n`,
        );
        socket.write(Buffer.alloc(64 * 1024, 97));
      });
      return outcome;
    } finally {
      await new Promise((r) => early.close(r));
    }
  }

  it("keeps reading the body until the client closes: the client's writes meet no reset", async () => {
    const outcome = await earlyAnswer(true);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toMatch(/connection: close/i);
    expect(outcome.serverEnded).toBe(true);
    expect(outcome.error).toBeUndefined();
  });

  it("without it, Node resets the connection under the client's writes (what the guard is for)", async () => {
    const outcome = await earlyAnswer(false);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(["EPIPE", "ECONNRESET"]).toContain(outcome.error);
  });
});
