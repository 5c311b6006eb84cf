// HTTP hygiene of the production server: links use the host the caller used, and the sign-in
// lockout the caller's address (X-Forwarded-* only with TRUST_PROXY=true), and slow or oversized
// clients are cut by the documented limits.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, ctx, mintKey } from "./helpers";
import { ownServer, type OwnServer } from "./server";

const WITH_OUTPUT = {
  name: "links",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "t", type: "transform", expression: "item" }],
    output: { filename: "out.jsonl", format: "jsonl" },
  },
};

/** A GET sent to the server's real address with a Host (and other headers) of our choosing. */
function getWithHeaders(base: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: "GET", headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Triggers a run that writes an output file and waits until it completed; returns the run's path. */
async function completedRun(base: string, key: string, agentId: string): Promise<string> {
  const auth = { authorization: `Bearer ${key}` };
  const res = await fetch(`${base}/api/agents/webhook/${agentId}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ rows: [{ a: 1 }] }),
  });
  expect(res.status).toBe(202);
  const runPath = `/api/agents/${agentId}/runs/${((await res.json()) as { run_id: string }).run_id}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Prefer: wait answers as soon as the status changes: no fixed sleep.
    const run = await (await fetch(`${base}${runPath}`, { headers: { ...auth, prefer: "wait=5" } })).json();
    if (run.status === "completed") return runPath;
    if (Date.now() > deadline) throw new Error(`run did not complete: ${JSON.stringify(run)}`);
  }
}

/** Raw bytes to the server; what came back by the time the server closed the connection. */
function rawExchange(base: string, write: (socket: net.Socket) => void, boundMs: number) {
  const { hostname, port } = new URL(base);
  return new Promise<{ closedByServer: boolean; got: string }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => write(socket));
    let got = "";
    const bound = setTimeout(() => {
      socket.destroy();
      resolve({ closedByServer: false, got });
    }, boundMs);
    socket.on("data", (d) => (got += d));
    socket.on("close", () => {
      clearTimeout(bound);
      resolve({ closedByServer: true, got });
    });
    socket.on("error", (e) => (got ? undefined : reject(e)));
  });
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));

let own: OwnServer;

beforeAll(async () => {
  own = await ownServer("hygiene", { TRUST_PROXY: "true", HEADERS_TIMEOUT_MS: "500" });
});

afterAll(async () => {
  await own?.dispose();
});

describe("links use the caller's host", () => {
  let shared: { base: string; key: string; runPath: string; port: string };

  beforeAll(async () => {
    const base = ctx().baseUrl;
    const key = (await mintKey(ctx().orgA)).key;
    const agentId = (await createAgent(ctx().orgA, WITH_OUTPUT)).agent_id;
    shared = { base, key, runPath: await completedRun(base, key, agentId), port: new URL(base).port };
  });

  it("a signed file URL starts with the Host the request was sent with, and works", async () => {
    const { base, key, runPath, port } = shared;
    const res = await getWithHeaders(base, runPath, { host: `example.test:${port}`, authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    const url: string = res.body.output_files[0].url;
    expect(url.startsWith(`http://example.test:${port}/api/files/download?token=`), url).toBe(true);
    const link = new URL(url);
    const download = await fetch(`${base}${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(JSON.parse((await download.text()).trim())).toMatchObject({ index: 0, status: "completed" });
  });

  it("ignores X-Forwarded-Host and X-Forwarded-Proto without TRUST_PROXY", async () => {
    const { base, key, runPath, port } = shared;
    const res = await getWithHeaders(base, runPath, {
      host: `example.test:${port}`,
      "x-forwarded-host": "proxy.example",
      "x-forwarded-proto": "https",
      authorization: `Bearer ${key}`,
    });
    expect(res.body.output_files[0].url).toMatch(new RegExp(`^http://example\\.test:${port}/api/files/download\\?`));
  });

  it("falls back to the listen address for a Host that is not a host[:port]", async () => {
    const { base, key, runPath } = shared;
    for (const host of ["evil.example/x", "user@evil.example"]) {
      const res = await getWithHeaders(base, runPath, { host, authorization: `Bearer ${key}` });
      expect(res.status, host).toBe(200);
      // The test server listens on 127.0.0.1 (HOST), which is `base`.
      expect(res.body.output_files[0].url.startsWith(`${base}/api/files/download?`), host).toBe(true);
    }
  });

  it("honours X-Forwarded-Host and X-Forwarded-Proto with TRUST_PROXY=true", async () => {
    const key = await own.mintKey();
    const agentId = await own.createAgent(WITH_OUTPUT);
    const runPath = await completedRun(own.server.baseUrl, key, agentId);
    const port = String(own.server.port);
    const forwarded = await getWithHeaders(own.server.baseUrl, runPath, {
      host: `127.0.0.1:${port}`,
      "x-forwarded-host": "proxy.example",
      "x-forwarded-proto": "https",
      authorization: `Bearer ${key}`,
    });
    expect(forwarded.body.output_files[0].url).toMatch(/^https:\/\/proxy\.example\/api\/files\/download\?token=/);
    const direct = await getWithHeaders(own.server.baseUrl, runPath, {
      host: `example.test:${port}`,
      authorization: `Bearer ${key}`,
    });
    expect(direct.body.output_files[0].url).toMatch(new RegExp(`^http://example\\.test:${port}/api/files/download\\?`));
  });
});

describe("slow and oversized clients", () => {
  it("answers headers larger than MAX_HEADER_BYTES (16 KiB) with 431 in the envelope, and accepts 12 KiB", async () => {
    const base = ctx().baseUrl;
    const big = await rawExchange(
      base,
      (s) => s.write(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`),
      30_000,
    );
    expect(big.closedByServer).toBe(true);
    expect(big.got).toMatch(/^HTTP\/1\.1 431 /);
    const body = bodyOf(big.got);
    expect(body.error).toMatchObject({ code: "headers_too_large", details: { limit_bytes: 16384 } });
    expect(big.got).toMatch(new RegExp(`\r\nX-Request-Id: ${body.error.request_id}\r\n`, "i"));
    const fine = await fetch(`${base}/api/health`, { headers: { "x-big": "a".repeat(12 * 1024) } });
    expect(fine.status).toBe(200);
  });

  it("cuts a client that sends headers slowly and never finishes (HEADERS_TIMEOUT_MS)", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const slow = await rawExchange(
      own.server.baseUrl,
      (s) => {
        s.write("GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        // One byte every 100 ms: never idle, never done.
        trickle = setInterval(() => s.writable && s.write("a"), 100);
      },
      30_000, // a generous bound only: the limit is 500 ms
    );
    clearInterval(trickle);
    expect(slow.closedByServer).toBe(true);
    expect(slow.got).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(slow.got).error.code).toBe("request_timeout");
    // The same server still serves a client that sends its headers at once.
    expect((await fetch(`${own.server.baseUrl}/api/health`)).status).toBe(200);
  });
});

describe("the console sign-in lockout keys on X-Forwarded-For only with TRUST_PROXY=true", () => {
  const attempt = (base: string, email: string, forwardedFor: string) =>
    fetch(`${base}/api/console/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email, password: "not the password" }),
    }).then((r) => r.status);
  /** Five failures: the fifth locks the email and address pair (429). */
  const failFive = async (base: string, email: string, forwardedFor: (n: number) => string) => {
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push(await attempt(base, email, forwardedFor(n)));
    return statuses;
  };

  it("with TRUST_PROXY=true: the address the proxy appended, whatever the client put before it", async () => {
    const base = own.server.baseUrl;
    const email = "lockout-proxied@example.com";
    // A client rotating its own X-Forwarded-For entry stays one client: the proxy's entry is last.
    expect(await failFive(base, email, (n) => `198.51.100.${n + 1}, 203.0.113.7`)).toEqual([401, 401, 401, 401, 429]);
    expect(await attempt(base, email, "203.0.113.7")).toBe(429);
    // Another client behind the same proxy is not locked out.
    expect(await attempt(base, email, "203.0.113.8")).toBe(401);
  });

  it("without TRUST_PROXY: the connection's address; X-Forwarded-For changes nothing", async () => {
    const base = ctx().baseUrl;
    const email = "lockout-direct@example.com";
    expect(await failFive(base, email, (n) => `203.0.113.${n + 1}`)).toEqual([401, 401, 401, 401, 429]);
    expect(await attempt(base, email, "203.0.113.99")).toBe(429);
  });
});
