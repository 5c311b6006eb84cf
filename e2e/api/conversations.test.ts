// Conversational triggers through real HTTP (docs/api.md, Conversational agents): the
// synchronous 200, Prefer: respond-async, upstream errors and timeouts, validation before anything
// is stored, file references, and exact session counters under concurrent triggers.
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream } from "../../test-support/runtime";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

let key: string;
let agentId: string;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  agentId = (await createAgent(ctx().orgA, { name: "conv", kind: "conversational", runtime: { type: "echo" } }))
    .agent_id;
});

const trigger = (agent: string, body: unknown, headers: Record<string, string> = {}) =>
  call("POST", `/api/agents/webhook/${agent}`, { auth: key, body, headers });
const sessions = (agent: string, query = "") => call("GET", `/api/agents/${agent}/sessions${query}`, { auth: key });
const message = (agent: string, sessionId: string, messageId: string) =>
  call("GET", `/api/agents/${agent}/sessions/${sessionId}/messages/${messageId}`, { auth: key });

async function pollMessage(agent: string, sessionId: string, messageId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await message(agent, sessionId, messageId);
    expect(res.status).toBe(200);
    if (res.body.status !== "processing" || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("synchronous trigger", () => {
  it("answers 200 with the reply and every documented field", async () => {
    const res = await trigger(agentId, { message: "hello world", user_id: "user-1", metadata: { plan: "pro" } });
    expect(res.status, res.text).toBe(200);
    const { orgA } = ctx();
    expect(res.body).toEqual({
      success: true,
      session_id: expect.stringMatching(/^sess_/),
      message_id: expect.stringMatching(/^msg_/),
      agent_id: agentId,
      organization_id: orgA.organization_id,
      project_id: orgA.project_id,
      agent_version: 1,
      status: "completed",
      response: "Echo: hello world",
      files: [],
      token_usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
      processing_time: expect.any(Number),
      timestamp: expect.stringMatching(ISO),
    });
    expect(res.body.processing_time).toBeGreaterThanOrEqual(0);
    const stored = await message(agentId, res.body.session_id, res.body.message_id);
    expect(stored.body).toMatchObject({ role: "assistant", status: "completed", content: "Echo: hello world" });
  });

  it("continues a session given its session_id and passes the earlier messages as history", async () => {
    const first = await trigger(agentId, { message: "one" });
    const second = await trigger(agentId, { message: "two", session_id: first.body.session_id });
    expect(second.status, second.text).toBe(200);
    expect(second.body.session_id).toBe(first.body.session_id);
    // echo counts the words of the message and of the history ("one", "Echo: one") as prompt tokens
    expect(second.body.token_usage.prompt_tokens).toBe(1 + 1 + 2);
    const session = await call("GET", `/api/agents/${agentId}/sessions/${first.body.session_id}`, { auth: key });
    expect(session.body.message_count).toBe(4);
  });

  it("answers 502 upstream_error with the ids when the runtime fails, and the message ends error", async () => {
    const failing = (
      await createAgent(ctx().orgA, { name: "fail", kind: "conversational", runtime: { type: "echo", fail: "error" } })
    ).agent_id;
    const res = await trigger(failing, { message: "hi" });
    expectError(res, 502, "upstream_error");
    const { session_id, message_id } = res.body.error.details;
    expect(session_id).toMatch(/^sess_/);
    expect(message_id).toMatch(/^msg_/);
    expect(res.text).not.toMatch(/fail hook/);
    const stored = await message(failing, session_id, message_id);
    expect(stored.body.status).toBe("error");
    expect(stored.body.error.code).toBe("message_processing_failed");
    expect(stored.body.error.reason).toBe("upstream_error");
    expect(typeof stored.body.error.message).toBe("string");
    expect(stored.text).not.toMatch(/fail hook/);
  });

  it("answers 502 upstream_timeout when every attempt ran into the runtime's time limit; the message ends error naming it", async () => {
    const upstream = await startFakeUpstream();
    try {
      upstream.answer(() => "hang"); // answers after the end of time: each attempt meets timeout_ms
      const agent = (
        await createAgent(ctx().orgA, {
          name: "times-out",
          kind: "conversational",
          runtime: { type: "http", url: `${upstream.url}/reply`, timeout_ms: 1_000 },
        })
      ).agent_id;
      const res = await trigger(agent, { message: "anyone there?" });
      expectError(res, 502, "upstream_timeout");
      expect(res.body.error.message).toMatch(/timed out on every attempt/);
      const { session_id, message_id, message_status } = res.body.error.details;
      expect(message_status).toBe("error");
      expect(upstream.requests.length).toBeGreaterThanOrEqual(2); // timeouts are retried first
      const stored = await message(agent, session_id, message_id);
      expect(stored.body.status).toBe("error");
      expect(stored.body.error).toMatchObject({ code: "message_processing_failed", reason: "upstream_timeout" });
    } finally {
      await upstream.close();
    }
  });

  it("answers 502 upstream_timeout when the wait runs out, and the reply still completes later", async () => {
    const slow = (
      await createAgent(ctx().orgA, { name: "slow", kind: "conversational", runtime: { type: "echo", delay_ms: 6000 } })
    ).agent_id;
    // RFC 7240 `wait` shortens the bounded wait (TRIGGER_WAIT_MS) for this request only.
    const res = await trigger(slow, { message: "take your time" }, { prefer: "wait=1" });
    expectError(res, 502, "upstream_timeout");
    const { session_id, message_id } = res.body.error.details;
    const pending = await message(slow, session_id, message_id);
    expect(pending.body.status).toBe("processing");
    const done = await pollMessage(slow, session_id, message_id);
    expect(done).toMatchObject({ status: "completed", content: "Echo: take your time", error: null });
    expect(done.processing_time_ms).toBeGreaterThanOrEqual(6000);
  });
});

describe("asynchronous trigger (Prefer: respond-async)", () => {
  it("answers 202 at once with status processing, and the message can be polled to completed", async () => {
    const slow = (
      await createAgent(ctx().orgA, { name: "slow2", kind: "conversational", runtime: { type: "echo", delay_ms: 500 } })
    ).agent_id;
    const res = await trigger(slow, { message: "later please" }, { prefer: "respond-async" });
    expect(res.status, res.text).toBe(202);
    expect(res.headers.get("preference-applied")).toBe("respond-async");
    expect(res.body).toMatchObject({
      success: true,
      session_id: expect.stringMatching(/^sess_/),
      message_id: expect.stringMatching(/^msg_/),
      agent_id: slow,
      organization_id: ctx().orgA.organization_id,
      project_id: ctx().orgA.project_id,
      status: "processing",
    });
    const done = await pollMessage(slow, res.body.session_id, res.body.message_id);
    expect(done).toMatchObject({ status: "completed", content: "Echo: later please", model: "echo" });
  });
});

describe("trigger validation stores nothing", () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = (await createAgent(ctx().orgA)).agent_id;
  });

  it.each([
    ["a JSON array", [{ message: "hi" }], "(root)"],
    ["a JSON string", "hi", "(root)"],
    ["no message", { user_id: "u" }, "message"],
    ["an empty message", { message: "" }, "message"],
    ["a message that is not a string", { message: 42 }, "message"],
    ["attachments that are not an array", { message: "hi", attachments: { file_id: "fi_x" } }, "attachments"],
    ["an attachment that is not a file reference", { message: "hi", attachments: ["fi_abc"] }, "attachments.0"],
    ["metadata that is not an object", { message: "hi", metadata: [1] }, "metadata"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, body, field) => {
    const res = await trigger(fresh, body);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it("refuses an unknown session_id with 404 session_not_found", async () => {
    const res = await trigger(fresh, { message: "hi", session_id: "sess_doesnotexist" });
    expectError(res, 404, "session_not_found");
  });

  it("refuses the session of another agent with 404 session_not_found", async () => {
    const other = await trigger(agentId, { message: "mine" });
    const res = await trigger(fresh, { message: "hi", session_id: other.body.session_id });
    expectError(res, 404, "session_not_found");
  });

  it("refuses an unknown file reference with 400 file_not_found", async () => {
    const res = await trigger(fresh, { message: "hi", attachments: [{ file_id: `fi_${"0".repeat(32)}` }] });
    expectError(res, 400, "file_not_found");
  });

  it("left no session behind after the refused triggers", async () => {
    const res = await sessions(fresh);
    expect(res.body.sessions).toEqual([]);
  });
});

describe("file references", () => {
  async function upload(agent: string, name: string) {
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), name);
    const res = await fetch(`${ctx().baseUrl}/api/agents/${agent}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { file_id: string }).file_id;
  }

  it("resolves attachments before the agent runs (the echo reply names the file)", async () => {
    const fileId = await upload(agentId, "report.csv");
    const res = await trigger(agentId, { message: "see file", attachments: [{ file_id: fileId }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toBe("Echo: see file [attachments: report.csv]");
  });

  it("hands the runtime links signed at each attempt: a retried reply gets later links that work", async () => {
    const upstream = await startFakeUpstream();
    try {
      // Busy for the first 1.1 s of the reply: the reply's own retries reach a later second.
      let firstAt: number | undefined;
      upstream.answer(() => {
        firstAt ??= Date.now();
        return Date.now() - firstAt < 1_100 ? { status: 503, text: "busy" } : { json: { content: "got it" } };
      });
      const agent = (
        await createAgent(ctx().orgA, {
          name: "links",
          kind: "conversational",
          runtime: { type: "http", url: `${upstream.url}/reply`, timeout_ms: 5_000 },
        })
      ).agent_id;
      const fileId = await upload(agent, "notes.csv");
      const res = await trigger(agent, { message: "read it", attachments: [{ file_id: fileId }] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response).toBe("got it");
      type Link = { file_id: string; url: string; url_expires_at: string };
      const links = upstream.requests.map((r) => (r.body as { attachments: Link[] }).attachments[0]!);
      expect(links.length).toBeGreaterThanOrEqual(2);
      const [first, last] = [links[0]!, links.at(-1)!];
      expect(last.file_id).toBe(fileId);
      expect(Date.parse(last.url_expires_at)).toBeGreaterThan(Date.parse(first.url_expires_at));
      expect(last.url).not.toBe(first.url);
      const download = await fetch(last.url);
      expect(download.status).toBe(200);
      expect(await download.text()).toBe("a,b\n1,2\n");
    } finally {
      await upstream.close();
    }
  });

  it("refuses a file uploaded for another agent with 400 file_not_found", async () => {
    const other = (await createAgent(ctx().orgA)).agent_id;
    const fileId = await upload(other, "theirs.csv");
    const res = await trigger(agentId, { message: "hi", attachments: [{ file_id: fileId }] });
    expectError(res, 400, "file_not_found");
  });
});

describe("session counters", () => {
  it("stay exact under 20 concurrent triggers on one session", async () => {
    const agent = (await createAgent(ctx().orgA)).agent_id;
    const first = await trigger(agent, { message: "start" });
    const sessionId = first.body.session_id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => trigger(agent, { message: `concurrent ${i}`, session_id: sessionId })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));

    const session = (await call("GET", `/api/agents/${agent}/sessions/${sessionId}`, { auth: key })).body;
    const list = (await call("GET", `/api/agents/${agent}/sessions/${sessionId}/messages?limit=200`, { auth: key }))
      .body;
    expect(session.message_count).toBe(42);
    expect(list.messages).toHaveLength(42);
    const sum = (k: "prompt_tokens" | "completion_tokens" | "total_tokens") =>
      list.messages.reduce((n: number, m: any) => n + (m.token_usage?.[k] ?? 0), 0);
    expect(session.token_usage).toEqual({
      prompt_tokens: sum("prompt_tokens"),
      completion_tokens: sum("completion_tokens"),
      total_tokens: sum("total_tokens"),
    });
    const lastUser = list.messages
      .filter((m: any) => m.role === "user")
      .map((m: any) => m.created_at)
      .sort()
      .pop();
    expect(session.last_message_at).toBe(lastUser);
    const listed = (await sessions(agent)).body.sessions.find((s: any) => s.session_id === sessionId);
    expect(listed.total_tokens).toBe(session.token_usage.total_tokens);
  });
});
