// Streamed replies over Server-Sent Events (docs/api.md "Streaming replies (SSE)"): a conversational
// trigger with `Accept: text/event-stream` streams deltas then the sync trigger's object; the reply
// is stored as for a sync trigger and survives a disconnect; GET message follows a reply still
// processing. Upstreams are held with gates, never with sleeps.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, startFakeOpenAi, type FakeOpenAi } from "../../test-support/runtime";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";
import { startServer } from "./server";

let key: string;
let echoAgent: string;
let upstream: FakeOpenAi;
let openAiAgent: string;

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  echoAgent = (await createAgent(ctx().orgA)).agent_id;
  upstream = await startFakeOpenAi("fake-model");
  openAiAgent = (
    await createAgent(ctx().orgA, {
      name: "streaming",
      kind: "conversational",
      runtime: { type: "openai", base_url: upstream.url, model: "fake-model", timeout_ms: 30_000 },
    })
  ).agent_id;
});
afterAll(() => upstream.close());

interface Event {
  event: string;
  data: any;
}

/** A request read as an event stream: `next()` is the next event (comments skipped), null at the end. */
async function open(
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; baseUrl?: string } = {},
) {
  const aborter = new AbortController();
  const res = await fetch(`${opts.baseUrl ?? ctx().baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: "text/event-stream",
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: aborter.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let comments = 0;
  async function next(): Promise<Event | null> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const fields = block.filter((line) => !line.startsWith(":"));
        if (fields.length === 0) {
          comments++;
          continue;
        }
        const field = (name: string) => fields.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        return { event: field("event") ?? "message", data: JSON.parse(field("data") ?? "null") };
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  }
  async function rest(): Promise<Event[]> {
    const out: Event[] = [];
    for (let e = await next(); e; e = await next()) out.push(e);
    return out;
  }
  return { res, next, rest, comments: () => comments, abort: () => aborter.abort() };
}

const triggerStream = (agent: string, body: unknown, headers: Record<string, string> = {}) =>
  open("POST", `/api/agents/webhook/${agent}`, { body, headers });
const followStream = (agent: string, sessionId: string, messageId: string) =>
  open("GET", `/api/agents/${agent}/sessions/${sessionId}/messages/${messageId}`);
const getMessage = (agent: string, sessionId: string, messageId: string, headers: Record<string, string> = {}) =>
  call("GET", `/api/agents/${agent}/sessions/${sessionId}/messages/${messageId}`, { auth: key, headers });
const messagesOf = (agent: string, sessionId: string) =>
  call("GET", `/api/agents/${agent}/sessions/${sessionId}/messages?limit=200`, { auth: key });

describe("streamed trigger", () => {
  it("echo: one delta, then the sync trigger's object; GET message shows the same reply stored", async () => {
    const stream = await triggerStream(echoAgent, { message: "stream me" });
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(stream.res.headers.get("x-accel-buffering")).toBe("no");
    expect(stream.res.headers.get("x-request-id")).toMatch(/^req_/);
    const events = await stream.rest();
    expect(events.map((e) => e.event)).toEqual(["delta", "message"]);
    expect(events[0]!.data).toEqual({ content: "Echo: stream me" });

    const final = events[1]!.data;
    const sync = await call("POST", `/api/agents/webhook/${echoAgent}`, { auth: key, body: { message: "stream me" } });
    expect(sync.status).toBe(200);
    expect(Object.keys(final).sort()).toEqual(Object.keys(sync.body).sort());
    expect(final).toMatchObject({ success: true, status: "completed", response: "Echo: stream me", files: [] });
    expect(final.token_usage).toEqual(sync.body.token_usage);
    expect(stream.res.headers.get("location")).toBe(
      `/api/agents/${echoAgent}/sessions/${final.session_id}/messages/${final.message_id}`,
    );

    const stored = await getMessage(echoAgent, final.session_id, final.message_id);
    expect(stored.body).toMatchObject({
      message_id: final.message_id,
      session_id: final.session_id,
      role: "assistant",
      status: "completed",
      content: final.response,
      token_usage: final.token_usage,
    });
    const list = await messagesOf(echoAgent, final.session_id);
    expect(list.body.messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "stream me"],
      ["assistant", "Echo: stream me"],
    ]);
  });

  it("openai: token deltas in order whose concatenation is the stored content", async () => {
    upstream.script({ pieces: ["The", " quick", " brown", " fox"], usage: [5, 4] });
    const stream = await triggerStream(openAiAgent, { message: "a fox please" });
    expect(stream.res.status).toBe(200);
    const events = await stream.rest();
    expect(events.map((e) => e.event)).toEqual(["delta", "delta", "delta", "delta", "message"]);
    const deltas = events.slice(0, 4).map((e) => e.data.content);
    expect(deltas).toEqual(["The", " quick", " brown", " fox"]);
    const final = events[4]!.data;
    expect(final.response).toBe(deltas.join(""));
    expect(final.token_usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
    expect((upstream.requests.at(-1)!.body as { stream?: boolean }).stream).toBe(true);
    const stored = await getMessage(openAiAgent, final.session_id, final.message_id);
    expect(stored.body).toMatchObject({ status: "completed", content: "The quick brown fox", model: "fake-model" });
  });

  it("a client that disconnects after the first delta loses nothing: the reply completes, once", async () => {
    const held = gate();
    upstream.script({ pieces: ["first", held.promise, " second", " third"] });
    const before = upstream.requests.length;
    const stream = await triggerStream(openAiAgent, { message: "then hang up" });
    const location = stream.res.headers.get("location")!;
    const [, sessionId, messageId] = /\/sessions\/([^/]+)\/messages\/([^/]+)$/.exec(location)!;
    expect(await stream.next()).toEqual({ event: "delta", data: { content: "first" } });
    stream.abort();
    held.open();

    const follow = await followStream(openAiAgent, sessionId!, messageId!);
    const events = await follow.rest();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ status: "completed", content: "first second third" });
    const assistants = (await messagesOf(openAiAgent, sessionId!)).body.messages.filter(
      (m: any) => m.role === "assistant",
    );
    expect(assistants).toHaveLength(1);
    expect(assistants[0]).toMatchObject({ message_id: messageId, content: "first second third" });
    expect(upstream.requests.length - before).toBe(1);
  });

  it("an upstream failure ends with event: error and the sync trigger's code", async () => {
    upstream.script({ pieces: [], error: 400 });
    const stream = await triggerStream(openAiAgent, { message: "fail please" });
    expect(stream.res.status).toBe(200);
    const events = await stream.rest();
    expect(events.map((e) => e.event)).toEqual(["error"]);
    const error = events[0]!.data.error;
    expect(error).toMatchObject({
      code: "upstream_error",
      request_id: stream.res.headers.get("x-request-id"),
      details: { session_id: expect.stringMatching(/^sess_/), message_id: expect.stringMatching(/^msg_/) },
    });
    const sync = await call("POST", `/api/agents/webhook/${openAiAgent}`, {
      auth: key,
      body: { message: "fail please" },
    });
    expectError(sync, 502, error.code);
    const stored = await getMessage(openAiAgent, error.details.session_id, error.details.message_id);
    expect(stored.body).toMatchObject({ status: "error", error: { code: "message_processing_failed" } });
  });

  it("a wait that runs out (Prefer: wait=1) ends with upstream_timeout, as the sync trigger does", async () => {
    const held = gate();
    upstream.script({ pieces: ["late", held.promise] });
    try {
      const stream = await triggerStream(openAiAgent, { message: "slow" }, { prefer: "wait=1" });
      const events = await stream.rest();
      expect(events.at(-1)!.event).toBe("error");
      expect(events.at(-1)!.data.error.code).toBe("upstream_timeout");
      expect(events.slice(0, -1).every((e) => e.event === "delta")).toBe(true);
    } finally {
      held.open();
    }
  });

  it("errors before the stream starts answer as JSON envelopes with their status", async () => {
    const bad = await call("POST", `/api/agents/webhook/${echoAgent}`, {
      auth: key,
      body: { session_id: "sess_x" },
      headers: { accept: "text/event-stream" },
    });
    expectError(bad, 400, "invalid_request");
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
    const unknownSession = await call("POST", `/api/agents/webhook/${echoAgent}`, {
      auth: key,
      body: { message: "hi", session_id: "sess_doesnotexist" },
      headers: { accept: "text/event-stream" },
    });
    expectError(unknownSession, 404, "session_not_found");
  });

  it("Idempotency-Key: a repeat after the stream ended replays the final object as JSON", async () => {
    const headers = { "idempotency-key": `sse-${Date.now()}` };
    const stream = await triggerStream(echoAgent, { message: "once" }, headers);
    const events = await stream.rest();
    const final = events.at(-1)!;
    expect(final.event).toBe("message");
    const replay = await call("POST", `/api/agents/webhook/${echoAgent}`, {
      auth: key,
      body: { message: "once" },
      headers: { ...headers, accept: "text/event-stream" },
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(final.data);
    expect((await messagesOf(echoAgent, final.data.session_id)).body.messages).toHaveLength(2);
  });
});

describe("GET message as an event stream", () => {
  it("follows a reply still processing and ends with the message object when it completes", async () => {
    const held = gate();
    upstream.script({ pieces: ["slow", held.promise, " reply"] });
    const arrived = upstream.arrived();
    const accepted = await call("POST", `/api/agents/webhook/${openAiAgent}`, {
      auth: key,
      body: { message: "take your time" },
      headers: { prefer: "respond-async" },
    });
    expect(accepted.status).toBe(202);
    const { session_id: sessionId, message_id: messageId } = accepted.body;
    await arrived;
    expect((await getMessage(openAiAgent, sessionId, messageId)).body.status).toBe("processing");

    const follow = await followStream(openAiAgent, sessionId, messageId);
    expect(follow.res.status).toBe(200);
    expect(follow.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    held.open();
    const events = await follow.rest();
    expect(events.map((e) => e.event)).toEqual(["message"]);
    expect(follow.comments()).toBeGreaterThanOrEqual(1);
    const stored = await getMessage(openAiAgent, sessionId, messageId);
    expect(events[0]!.data).toEqual(stored.body);
    expect(stored.body).toMatchObject({ status: "completed", content: "slow reply" });
  });

  it("a message already ended answers one event at once; unknown ids answer 404 JSON", async () => {
    const sync = await call("POST", `/api/agents/webhook/${echoAgent}`, { auth: key, body: { message: "done" } });
    const { session_id: sessionId, message_id: messageId } = sync.body;
    const events = await (await followStream(echoAgent, sessionId, messageId)).rest();
    expect(events).toEqual([{ event: "message", data: (await getMessage(echoAgent, sessionId, messageId)).body }]);

    const missing = await call("GET", `/api/agents/${echoAgent}/sessions/${sessionId}/messages/msg_nope`, {
      auth: key,
      headers: { accept: "text/event-stream" },
    });
    expectError(missing, 404, "message_not_found");
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)("GET message as an event stream, two processes on PostgreSQL", () => {
  it("a follower in another process than the producer learns of the completion", { timeout: 120_000 }, async () => {
    const other = await startServer(ctx().target, { SEED_DEMO: "false" });
    try {
      const held = gate();
      upstream.script({ pieces: ["made", held.promise, " elsewhere"] });
      const arrived = upstream.arrived();
      // Produced by the first process (it accepted the trigger) ...
      const accepted = await call("POST", `/api/agents/webhook/${openAiAgent}`, {
        auth: key,
        body: { message: "cross-process" },
        headers: { prefer: "respond-async" },
      });
      expect(accepted.status).toBe(202);
      await arrived;
      // ... followed from the second, which learns of the end through the long poll's shared poller.
      const follow = await open("GET", accepted.headers.get("location")!, { baseUrl: other.baseUrl });
      expect(follow.res.status).toBe(200);
      held.open();
      const events = await follow.rest();
      expect(events.map((e) => e.event)).toEqual(["message"]);
      expect(events[0]!.data).toMatchObject({
        message_id: accepted.body.message_id,
        status: "completed",
        content: "made elsewhere",
      });
    } finally {
      await other.stop();
    }
  });
});
