// Graceful shutdown (server.ts, lib/boot.ts): a synchronous trigger whose reply is still with its
// upstream when SIGTERM arrives gets its 200 answer; the server stops accepting connections at once;
// the process exits 0; a workflow run is handed over with each of its calls made once. The upstream holds the reply until the test lets it answer, after the signal,
// so "in flight at SIGTERM" is a fact rather than a matter of timing. On PostgreSQL also with
// WEB_CONCURRENCY=2, the signal sent to the cluster's primary.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, startServer, type OwnServer } from "./server";

const servers: OwnServer[] = [];
const upstreams: http.Server[] = [];
afterAll(async () => {
  for (const own of servers) await own.dispose();
  for (const u of upstreams) {
    u.closeAllConnections();
    await new Promise((r) => u.close(r));
  }
});

/** An http-runtime upstream that holds every request until `open()`. */
async function gatedUpstream() {
  let isOpen = false;
  let held: (() => void)[] = [];
  let seen = 0;
  const upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message: string };
      seen++;
      const answer = () =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ content: `ok ${body.message}` }));
      if (isOpen) answer();
      else held.push(answer);
    });
  });
  upstreams.push(upstream);
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/reply`,
    seen: () => seen,
    open() {
      isOpen = true;
      for (const answer of held) answer();
      held = [];
    },
  };
}

async function until(what: string, condition: () => boolean, poll?: () => Promise<void>) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await poll?.();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A request on a new connection: the answer's status, or the connection's error code. */
function freshGet(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
      .on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function drainCase(own: OwnServer, opts: { cluster: boolean }) {
  const gate = await gatedUpstream();
  const key = await own.mintKey();
  const agent = await own.createAgent({
    name: "slow",
    kind: "conversational",
    runtime: { type: "http", url: gate.url, timeout_ms: 120_000 },
  });
  const proc = own.server.proc;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );

  const trigger = own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: "in flight" } });
  await until("the upstream to receive the reply's call", () => gate.seen() === 1);

  process.kill(proc.pid!, "SIGTERM"); // the server (or the cluster's primary), not its process group
  const logged = () => readFileSync(own.server.logFile, "utf8").split("SIGTERM: shutting down").length - 1;
  await until("the server to begin its shutdown", () => logged() >= (opts.cluster ? 2 : 1));
  if (!opts.cluster) {
    // It listens no more (the line above is written just before the listening socket is closed).
    expect(await freshGet(`${own.server.baseUrl}/api/health`)).toBe("ECONNREFUSED");
  }

  gate.open();
  const answer = await trigger;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ response: "ok in flight", status: "completed" });
  expect(await exited).toEqual({ code: 0, signal: null });
}

/**
 * A workflow http step's receiver: records every call's Idempotency-Key, answers items 0 and 1 at
 * once and holds every later call until `release()` (those held now) or `open()` (all, from now on).
 */
async function holdingReceiver() {
  const keys: string[] = [];
  let isOpen = false;
  let held: (() => void)[] = [];
  const upstream = http.createServer((req, res) => {
    keys.push(String(req.headers["idempotency-key"]));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { item_index } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { item_index: number };
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      };
      if (isOpen || item_index < 2) answer();
      else held.push(answer);
    });
  });
  upstreams.push(upstream);
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const release = () => {
    const now = held;
    held = [];
    for (const answer of now) answer();
  };
  return {
    url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/step`,
    keys,
    held: () => held.length,
    release,
    open() {
      isOpen = true;
      release();
    },
  };
}

describe("graceful shutdown", () => {
  it("hands a workflow run over: the items in flight at SIGTERM finish, none starts, each call is made once", async () => {
    // A shutdown timeout far longer than the test needs: the run is handed over when its items in
    // flight finish, not when the timeout cuts them off (a call cut off would be made again).
    const own = await ownServer("handover", { SHUTDOWN_TIMEOUT_MS: "120000" });
    servers.push(own);
    const receiver = await holdingReceiver();
    const key = await own.mintKey();
    const agent = await own.createAgent({
      name: "handover",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true } },
        items: { from: "rows" },
        concurrency: 2,
        steps: [{ id: "send", type: "http", url: receiver.url, timeout_ms: 120_000 }],
      },
    });
    const rows = Array.from({ length: 8 }, (_, n) => ({ n }));
    const started = await own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { rows } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.run_id as string;
    await until("items 2 and 3 to be in flight", () => receiver.held() === 2);

    const logged = (line: string) => readFileSync(own.server.logFile, "utf8").includes(line);
    const stopped = own.server.stop("SIGTERM"); // gracefully: resolves once the process has exited
    await until("the run's pass to hear that its worker stops", () =>
      logged("run pass stopping: the items in flight finish, none starts"),
    );
    receiver.release(); // items 2 and 3 finish; a pass that started item 4 would be held until the timeout
    await stopped;
    // Counted before the server starts again: the restarted one continues the run at once.
    expect(receiver.keys).toHaveLength(4);
    receiver.open();
    own.server = await startServer(own.target, { SEED_DEMO: "false", SHUTDOWN_TIMEOUT_MS: "120000" }, own.server.port);
    let run: any;
    await until(
      "the run to complete on the restarted server",
      () => run?.status === "completed",
      async () => {
        run = (await own.call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key })).body;
      },
    );
    expect(run.summary).toMatchObject({ successful: 8 });
    // Each item's call was made once, under its key (run, item, step).
    expect([...receiver.keys].sort()).toEqual(rows.map((r) => `${runId}/${r.n}/send`).sort());
  });

  it("lets a synchronous trigger in flight at SIGTERM answer 200, refuses new connections, exits 0", async () => {
    const own = await ownServer("shutdown");
    servers.push(own);
    await drainCase(own, { cluster: false });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "does the same with WEB_CONCURRENCY=2, the signal sent to the primary",
    { timeout: 300_000 },
    async () => {
      const own = await ownServer("shutdown-cluster", { WEB_CONCURRENCY: "2" });
      servers.push(own);
      await drainCase(own, { cluster: true });
    },
  );
});
