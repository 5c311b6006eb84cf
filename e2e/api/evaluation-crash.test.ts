// Crash safety of evaluations: the server is SIGKILLed in the middle of an evaluation and started
// again on the same data. The evaluation continues and completes; a case that had finished before
// the kill is never replayed again (its session's turn reached the candidate exactly once), and at
// most the cases in flight at the kill (EVALUATION_CONCURRENCY) are replayed twice. Runs its own
// server (the shared one must not be killed).
import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "./server";

const SESSIONS = 12;
const CONCURRENCY = 2;
let own: OwnServer | undefined;
let receiver: http.Server | undefined;
afterAll(async () => {
  await own?.dispose();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The candidate's runtime: answers each message after 300 ms and counts the calls per message. */
async function countingRuntime() {
  const calls = new Map<string, number>();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { message } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message: string };
      calls.set(message, (calls.get(message) ?? 0) + 1);
      setTimeout(
        () =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ content: `re: ${message}` })),
        300,
      );
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/reply`, calls };
}

describe("kill and restart in the middle of an evaluation", () => {
  it("completes it without replaying a finished case", { timeout: 300_000 }, async () => {
    const runtime = await countingRuntime();
    own = await ownServer("eval-crash", {
      // The shortest heartbeat (10 s): a killed worker's job is retried after that.
      QUEUE_HEARTBEAT_SECONDS: "10",
      QUEUE_SUPERVISE_SECONDS: "1",
      EVALUATION_CONCURRENCY: String(CONCURRENCY),
    });
    const o = own;
    const key = await o.mintKey();
    const agent = await o.createAgent({ name: "evaluated", kind: "conversational", runtime: { type: "echo" } });
    for (let i = 0; i < SESSIONS; i++) {
      const res = await o.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: `case ${i}` } });
      expect(res.status).toBe(200);
    }
    const base = `/api/v1/organizations/${o.org.organization_id}/agents/${agent}`;
    const admin = (method: string, p: string, body?: unknown) =>
      o.call(method, `${base}${p}`, { auth: o.org.user_token, body });
    expect((await admin("PATCH", "", { runtime: { type: "http", url: runtime.url }, base_version: 1 })).status).toBe(
      200,
    );
    const made = await admin("POST", "/evaluations", { source: { kind: "sessions", limit: SESSIONS } });
    expect(made.status).toBe(201);
    const id = made.body.evaluation_id as string;

    // Once a few cases have finished, note which, and kill the server.
    let finished: string[] = [];
    for (;;) {
      const cases = await admin("GET", `/evaluations/${id}/cases?limit=200`);
      finished = cases.body.cases
        .filter((c: { status: string }) => c.status === "done")
        .map((c: { input: string }) => c.input);
      if (finished.length >= 4) break;
      await sleep(50);
    }
    expect(finished.length).toBeLessThan(SESSIONS);
    await o.restart("SIGKILL");

    const deadline = Date.now() + 180_000;
    let e = (await admin("GET", `/evaluations/${id}`)).body;
    while (e.status !== "completed" && Date.now() < deadline) {
      await sleep(250);
      e = (await admin("GET", `/evaluations/${id}`)).body;
    }
    expect(e).toMatchObject({
      status: "completed",
      progress: { total: SESSIONS, done: SESSIONS },
      counts: { passed: SESSIONS },
    });
    // Every case reached the candidate; those finished before the kill exactly once; at most the
    // cases in flight at the kill twice.
    const messages = Array.from({ length: SESSIONS }, (_, i) => `case ${i}`);
    expect(messages.every((m) => (runtime.calls.get(m) ?? 0) >= 1)).toBe(true);
    for (const m of finished) expect(runtime.calls.get(m), m).toBe(1);
    const twice = messages.filter((m) => (runtime.calls.get(m) ?? 0) > 1);
    expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(messages.every((m) => (runtime.calls.get(m) ?? 0) <= 2)).toBe(true);
  });
});
