// Idempotency-Key on triggers (Stripe-style, 24 h, per organization): a repeat replays the first
// response and creates nothing; another body, or a repeat while the first is running, is 409.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

let key: string;
let agentId: string;

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  agentId = (await createAgent(ctx().orgA)).agent_id;
});

const trigger = (agent: string, body: unknown, headers: Record<string, string>, auth = key) =>
  call("POST", `/api/agents/webhook/${agent}`, { auth, body, headers });
const sessionCount = async (agent: string, auth = key) =>
  (await call("GET", `/api/agents/${agent}/sessions?limit=100`, { auth })).body.sessions.length;

describe("Idempotency-Key", () => {
  it("replays the first response with Idempotent-Replayed: true and creates nothing", async () => {
    const agent = (await createAgent(ctx().orgA)).agent_id;
    const k = randomUUID();
    const first = await trigger(agent, { message: "pay once", user_id: "u1" }, { "idempotency-key": k });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same body with its keys in another order: the same request.
    const again = await trigger(agent, { user_id: "u1", message: "pay once" }, { "idempotency-key": k });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await sessionCount(agent)).toBe(1);
    const messages = await call("GET", `/api/agents/${agent}/sessions/${first.body.session_id}/messages`, {
      auth: key,
    });
    expect(messages.body.messages).toHaveLength(2);
  });

  it("replays a 202 of respond-async with its Preference-Applied header", async () => {
    const k = randomUUID();
    const headers = { "idempotency-key": k, prefer: "respond-async" };
    const first = await trigger(agentId, { message: "async once" }, headers);
    expect(first.status).toBe(202);
    const again = await trigger(agentId, { message: "async once" }, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get("preference-applied")).toBe("respond-async");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("answers 409 idempotency_conflict for the same key with another body", async () => {
    const k = randomUUID();
    expect((await trigger(agentId, { message: "first" }, { "idempotency-key": k })).status).toBe(200);
    expectError(await trigger(agentId, { message: "second" }, { "idempotency-key": k }), 409, "idempotency_conflict");
  });

  it("answers 409 idempotency_conflict for the same key on another agent", async () => {
    const other = (await createAgent(ctx().orgA)).agent_id;
    const k = randomUUID();
    expect((await trigger(agentId, { message: "same" }, { "idempotency-key": k })).status).toBe(200);
    expectError(await trigger(other, { message: "same" }, { "idempotency-key": k }), 409, "idempotency_conflict");
    expect(await sessionCount(other)).toBe(0);
  });

  it("answers 409 idempotency_conflict while the first request with the key is still running", async () => {
    const slow = (
      await createAgent(ctx().orgA, { name: "slow", kind: "conversational", runtime: { type: "echo", delay_ms: 1500 } })
    ).agent_id;
    const k = randomUUID();
    const first = trigger(slow, { message: "slow" }, { "idempotency-key": k });
    await new Promise((r) => setTimeout(r, 400));
    const during = await trigger(slow, { message: "slow" }, { "idempotency-key": k });
    expectError(during, 409, "idempotency_conflict");
    expect((await first).status).toBe(200);
    const after = await trigger(slow, { message: "slow" }, { "idempotency-key": k });
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(await sessionCount(slow)).toBe(1);
  });

  it("keeps keys apart per organization", async () => {
    const { orgB } = ctx();
    const keyB = (await mintKey(orgB)).key;
    const agentB = (await createAgent(orgB)).agent_id;
    const k = randomUUID();
    expect((await trigger(agentId, { message: "shared key" }, { "idempotency-key": k })).status).toBe(200);
    const b = await trigger(agentB, { message: "shared key" }, { "idempotency-key": k }, keyB);
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
  });

  it("releases the key when the request is refused, so a corrected request can use it", async () => {
    const k = randomUUID();
    expectError(await trigger(agentId, { user_id: "no message" }, { "idempotency-key": k }), 400, "invalid_request");
    const fixed = await trigger(agentId, { message: "now with a message" }, { "idempotency-key": k });
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("replays a 502 upstream_error with the same message ids and stores no second message", async () => {
    const failing = (
      await createAgent(ctx().orgA, { name: "f", kind: "conversational", runtime: { type: "echo", fail: "error" } })
    ).agent_id;
    const k = randomUUID();
    const first = await trigger(failing, { message: "boom" }, { "idempotency-key": k });
    expectError(first, 502, "upstream_error");
    const again = await trigger(failing, { message: "boom" }, { "idempotency-key": k });
    expectError(again, 502, "upstream_error");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.error.details).toEqual(first.body.error.details);
    expect(await sessionCount(failing)).toBe(1);
  });

  it.each([
    ["empty", ""],
    ["longer than 255 characters", "k".repeat(256)],
  ])("refuses a key that is %s with 400 invalid_request", async (_label, k) => {
    const res = await trigger(agentId, { message: "x" }, { "idempotency-key": k });
    expectError(res, 400, "invalid_request");
  });

  it("accepts a key of exactly 255 characters", async () => {
    const res = await trigger(agentId, { message: "x" }, { "idempotency-key": `${randomUUID()}${"k".repeat(219)}` });
    expect(res.status).toBe(200);
  });
});
