// Sessions and messages through real HTTP (docs/api.md, Sessions and messages): every field, default, cap,
// filter, ordering and error code. Draft sessions are covered by the service's unit test (the API
// offers no way to make one).
import { beforeAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, expectError, mintKey, SIMPLE_WORKFLOW } from "./helpers";

let key: string;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const trigger = (agent: string, body: unknown, async = true) =>
  call("POST", `/api/agents/webhook/${agent}`, {
    auth: key,
    body,
    headers: async ? { prefer: "respond-async" } : {},
  });
const get = (path: string, auth = key) => call("GET", path, { auth });

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
});

describe("list sessions", () => {
  let agent: string;
  const ids: string[] = [];
  beforeAll(async () => {
    agent = (await createAgent(ctx().orgA)).agent_id;
    // 23 sessions, made one after the other so that their activity times differ.
    for (let i = 0; i < 23; i++) {
      const res = await trigger(agent, { message: `s${i}`, user_id: `u${i}` });
      expect(res.status).toBe(202);
      ids.push(res.body.session_id);
    }
  });

  it("returns 20 list items by default, most recently active first, with every list field", async () => {
    const res = await get(`/api/agents/${agent}/sessions`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["limit", "next_cursor", "sessions"]);
    expect(res.body.limit).toBe(20);
    expect(res.body.next_cursor).toEqual(expect.any(String)); // 23 sessions: more than a page
    expect(res.body.sessions.map((s: any) => s.session_id)).toEqual(ids.slice(3).reverse());
    const item = res.body.sessions[0];
    expect(item).toEqual({
      session_id: ids[22],
      agent_id: agent,
      status: "active",
      channel: "webhook",
      user_id: "u22",
      created_at: expect.stringMatching(ISO),
      last_message_at: expect.stringMatching(ISO),
      message_count: 2,
      total_tokens: expect.any(Number),
    });
  });

  it("honours limit and clamps a limit above 100 to 100, echoing the clamped value", async () => {
    const five = await get(`/api/agents/${agent}/sessions?limit=5`);
    expect(five.body.limit).toBe(5);
    expect(five.body.sessions).toHaveLength(5);
    const big = await get(`/api/agents/${agent}/sessions?limit=1000`);
    expect(big.status).toBe(200);
    expect(big.body.limit).toBe(100);
    expect(big.body.sessions).toHaveLength(23);
  });

  it.each(["0", "-1", "1.5", "abc", ""])("refuses limit=%s with 400 invalid_request", async (limit) => {
    const res = await get(`/api/agents/${agent}/sessions?limit=${limit}`);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("limit");
  });

  it("moves a session to the top when it gets a new message", async () => {
    const res = await trigger(agent, { message: "again", session_id: ids[0] });
    expect(res.status).toBe(202);
    const list = await get(`/api/agents/${agent}/sessions?limit=2`);
    expect(list.body.sessions.map((s: any) => s.session_id)).toEqual([ids[0], ids[22]]);
    expect(list.body.sessions[0].message_count).toBe(4);
  });

  it("filters by status", async () => {
    const active = await get(`/api/agents/${agent}/sessions?status=active&limit=100`);
    expect(active.body.sessions).toHaveLength(23);
    const closed = await get(`/api/agents/${agent}/sessions?status=closed`);
    expect(closed.body.sessions).toEqual([]);
  });

  it("keeps only sessions active after `since`", async () => {
    const all = (await get(`/api/agents/${agent}/sessions?limit=100`)).body.sessions;
    const pivot = all[3].last_message_at;
    const res = await get(`/api/agents/${agent}/sessions?limit=100&since=${encodeURIComponent(pivot)}`);
    expect(res.status).toBe(200);
    expect(res.body.sessions.map((s: any) => s.session_id)).toEqual(all.slice(0, 3).map((s: any) => s.session_id));
    const withOffset = pivot.replace("Z", "+00:00");
    const same = await get(`/api/agents/${agent}/sessions?limit=100&since=${encodeURIComponent(withOffset)}`);
    expect(same.body.sessions).toHaveLength(3);
    const future = await get(`/api/agents/${agent}/sessions?since=2999-01-01`);
    expect(future.body.sessions).toEqual([]);
  });

  it.each(["yesterday", "2024-13-45", "12345"])("refuses since=%s with 400 invalid_request", async (since) => {
    const res = await get(`/api/agents/${agent}/sessions?since=${since}`);
    expectError(res, 400, "invalid_request");
  });

  it("ignores unknown query parameters", async () => {
    const res = await get(`/api/agents/${agent}/sessions?limit=2&colour=blue&page=9`);
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
  });
});

describe("one session", () => {
  it("has every single-session field, without total_tokens", async () => {
    const agent = (await createAgent(ctx().orgA)).agent_id;
    const first = await trigger(
      agent,
      { message: "hello world", user_id: "end-user-7", metadata: { plan: "pro" } },
      false,
    );
    expect(first.status).toBe(200);
    const res = await get(`/api/agents/${agent}/sessions/${first.body.session_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: first.body.session_id,
      agent_id: agent,
      organization_id: ctx().orgA.organization_id,
      project_id: ctx().orgA.project_id,
      status: "active",
      channel: "webhook",
      user_id: "end-user-7",
      created_at: expect.stringMatching(ISO),
      last_message_at: expect.stringMatching(ISO),
      message_count: 2,
      token_usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
      cost: 0,
      metadata: { plan: "pro" },
    });
  });

  it("is session_not_found for an unknown id, another agent's session and another organization's", async () => {
    const { orgA, orgB } = ctx();
    const a1 = (await createAgent(orgA)).agent_id;
    const a2 = (await createAgent(orgA)).agent_id;
    const s = (await trigger(a1, { message: "x" })).body.session_id;
    expectError(await get(`/api/agents/${a1}/sessions/sess_doesnotexist`), 404, "session_not_found");
    expectError(await get(`/api/agents/${a2}/sessions/${s}`), 404, "session_not_found");
    expectError(await get(`/api/agents/${a2}/sessions/${s}/messages`), 404, "session_not_found");
    const keyB = (await mintKey(orgB)).key;
    const agentB = (await createAgent(orgB)).agent_id;
    expectError(await get(`/api/agents/${agentB}/sessions/${s}`, keyB), 404, "session_not_found");
    expectError(await get(`/api/agents/${a1}/sessions/${s}`, keyB), 404, "agent_not_found");
  });
});

describe("session routes on a workflow agent", () => {
  it.each([
    ["list sessions", "/sessions"],
    ["get session", "/sessions/sess_x"],
    ["list messages", "/sessions/sess_x/messages"],
    ["get message", "/sessions/sess_x/messages/msg_x"],
  ])("%s answers 400 runtime_not_applicable", async (_label, suffix) => {
    const wf = (await createAgent(ctx().orgA, SIMPLE_WORKFLOW)).agent_id;
    expectError(await get(`/api/agents/${wf}${suffix}`), 400, "runtime_not_applicable");
  });
});

describe("messages", () => {
  let agent: string;
  let sessionId: string;
  let firstReply: string;
  beforeAll(async () => {
    agent = (await createAgent(ctx().orgA)).agent_id;
    const first = await trigger(agent, { message: "m0" }, false);
    expect(first.status).toBe(200);
    sessionId = first.body.session_id;
    firstReply = first.body.message_id;
    // 26 exchanges = 52 messages, one more page than the default limit of 50.
    for (let i = 1; i < 26; i++) {
      const res = await trigger(agent, { message: `m${i}`, session_id: sessionId });
      expect(res.status).toBe(202);
    }
  });

  it("lists 50 by default, oldest first, each user message right before its reply", async () => {
    const res = await get(`/api/agents/${agent}/sessions/${sessionId}/messages`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["limit", "messages", "next_cursor", "offset"]);
    expect(res.body.limit).toBe(50);
    expect(res.body.offset).toBe(0);
    const msgs = res.body.messages;
    expect(msgs).toHaveLength(50);
    expect(msgs.map((m: any) => m.role)).toEqual(Array.from({ length: 50 }, (_, i) => (i % 2 ? "assistant" : "user")));
    expect(msgs.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual(
      Array.from({ length: 25 }, (_, i) => `m${i}`),
    );
    const times = msgs.map((m: any) => m.created_at);
    expect([...times].sort()).toEqual(times);
  });

  it("has every list field; user messages have null model, token_usage and agent_version", async () => {
    const [user, reply] = (await get(`/api/agents/${agent}/sessions/${sessionId}/messages?limit=2`)).body.messages;
    expect(user).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      role: "user",
      status: "completed",
      content: "m0",
      created_at: expect.stringMatching(ISO),
      model: null,
      token_usage: null,
      agent_version: null,
    });
    expect(reply).toEqual({
      message_id: firstReply,
      role: "assistant",
      status: "completed",
      content: "Echo: m0",
      created_at: expect.stringMatching(ISO),
      model: "echo",
      token_usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      agent_version: 1,
    });
  });

  it("pages with offset and clamps a limit above 200 to 200", async () => {
    const res = await get(`/api/agents/${agent}/sessions/${sessionId}/messages?limit=500&offset=48`);
    expect(res.body.limit).toBe(200);
    expect(res.body.offset).toBe(48);
    expect(res.body.messages.map((m: any) => m.content)).toEqual([
      "m24",
      expect.any(String),
      "m25",
      expect.any(String),
    ]);
    const past = await get(`/api/agents/${agent}/sessions/${sessionId}/messages?offset=1000`);
    expect(past.body.messages).toEqual([]);
  });

  it("filters by role", async () => {
    const users = await get(`/api/agents/${agent}/sessions/${sessionId}/messages?role=user&limit=200`);
    expect(users.body.messages).toHaveLength(26);
    expect(users.body.messages.every((m: any) => m.role === "user")).toBe(true);
    const replies = await get(`/api/agents/${agent}/sessions/${sessionId}/messages?role=assistant&limit=200`);
    expect(replies.body.messages).toHaveLength(26);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=x", "limit"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["role=system", "role"],
  ])("refuses %s with 400 invalid_request", async (query, field) => {
    const res = await get(`/api/agents/${agent}/sessions/${sessionId}/messages?${query}`);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields[0].field).toBe(field);
  });

  it("fetches one message with every single-message field", async () => {
    const res = await get(`/api/agents/${agent}/sessions/${sessionId}/messages/${firstReply}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message_id: firstReply,
      role: "assistant",
      status: "completed",
      content: "Echo: m0",
      created_at: expect.stringMatching(ISO),
      model: "echo",
      token_usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      agent_version: 1,
      session_id: sessionId,
      agent_id: agent,
      organization_id: ctx().orgA.organization_id,
      project_id: ctx().orgA.project_id,
      cost: 0,
      processing_time_ms: expect.any(Number),
      error: null,
    });
    expect(Number.isInteger(res.body.processing_time_ms)).toBe(true);
  });

  it("is message_not_found for an unknown id or a message of another session", async () => {
    expectError(await get(`/api/agents/${agent}/sessions/${sessionId}/messages/msg_nope`), 404, "message_not_found");
    const other = (await trigger(agent, { message: "elsewhere" })).body.session_id;
    expectError(await get(`/api/agents/${agent}/sessions/${other}/messages/${firstReply}`), 404, "message_not_found");
  });
});
