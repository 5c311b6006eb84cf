import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { generateReply, postJson, RuntimeError, toApiError, type ReplyInput } from "./index";
import type { RuntimeConfig } from "./schema";
import { closedPortUrl, startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";

let upstream: FakeUpstream;

beforeAll(async () => {
  // The fake upstream listens on 127.0.0.1, a loopback address the upstream guard refuses by default.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  resetEnvCache();
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(() => {
  upstream.requests.length = 0;
});

const config = (over: Partial<Extract<RuntimeConfig, { type: "http" }>> = {}): RuntimeConfig => ({
  type: "http",
  url: `${upstream.url}/reply`,
  timeout_ms: 5_000,
  headers: { "x-tenant": "acme", authorization: "Bearer customer-secret" },
  ...over,
});

const attachment = {
  file_id: "fi_1",
  filename: "a.txt",
  content_type: "text/plain",
  size_bytes: 3,
  url: "http://files.example/fi_1",
  url_expires_at: "2030-01-01T00:00:00Z",
};

const input = (over: Partial<ReplyInput> = {}): ReplyInput => ({
  agentId: "agt_1",
  sessionId: "ses_1",
  messageId: "msg_1",
  message: "Hello",
  attachments: [attachment],
  metadata: { channel: "web" },
  history: [
    { role: "user", content: "Earlier" },
    { role: "assistant", content: "Reply" },
  ],
  ...over,
});

describe("http runtime", () => {
  it("posts the trigger with the configured headers and returns the answer", async () => {
    upstream.answer(() => ({
      json: { content: "Hi!", model: "custom-1", token_usage: { prompt_tokens: 7, completion_tokens: 2 }, extra: 1 },
    }));
    const out = await generateReply(config(), input());

    expect(out).toEqual({
      content: "Hi!",
      model: "custom-1",
      token_usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
      cost: 0,
    });
    const req = upstream.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/reply");
    expect(req.headers["x-tenant"]).toBe("acme");
    expect(req.headers.authorization).toBe("Bearer customer-secret");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body).toEqual({
      agent_id: "agt_1",
      session_id: "ses_1",
      message_id: "msg_1",
      message: "Hello",
      attachments: [attachment],
      metadata: { channel: "web" },
      history: [
        { role: "user", content: "Earlier" },
        { role: "assistant", content: "Reply" },
      ],
    });
  });

  it("accepts an answer with only content", async () => {
    upstream.answer(() => ({ json: { content: "just text" } }));
    const out = await generateReply(config({ headers: undefined }), input());
    expect(out).toEqual({
      content: "just text",
      model: null,
      token_usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      cost: 0,
    });
  });

  it("fails as a non-retryable error when the answer has no content", async () => {
    upstream.answer(() => ({ json: { reply: "wrong field" } }));
    const p = generateReply(config(), input());
    await expect(p).rejects.toBeInstanceOf(RuntimeError);
    await expect(p).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a non-retryable error when the answer is not JSON", async () => {
    upstream.answer(() => ({ text: "not json", contentType: "text/plain" }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a retryable error on HTTP 500", async () => {
    upstream.answer(() => ({ status: 500, json: { content: "ignored" } }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: true });
  });

  it("fails as a non-retryable error on HTTP 400 and 404", async () => {
    for (const status of [400, 404]) {
      upstream.answer(() => ({ status, json: {} }));
      await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
    }
  });

  it("fails as a retryable error on HTTP 408 and 429", async () => {
    for (const status of [408, 429]) {
      upstream.answer(() => ({ status, json: {} }));
      await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: true });
    }
  });

  it("fails as a retryable timeout when the endpoint never answers", async () => {
    upstream.answer(() => "hang");
    await expect(generateReply(config({ timeout_ms: 200 }), input())).rejects.toMatchObject({
      kind: "timeout",
      retryable: true,
    });
  });

  it("fails as a retryable error when the connection is refused", async () => {
    const url = await closedPortUrl();
    await expect(generateReply(config({ url }), input())).rejects.toMatchObject({ kind: "error", retryable: true });
  });

  it("stops waiting when the caller's signal aborts", async () => {
    upstream.answer(() => "hang");
    const controller = new AbortController();
    const p = generateReply(config({ timeout_ms: 600_000 }), input({ signal: controller.signal }));
    await expect.poll(() => upstream.requests.length).toBe(1);
    controller.abort();
    await expect(p).rejects.toMatchObject({ kind: "timeout", retryable: true });
  });
});

describe("postJson", () => {
  it("posts the body and returns any parsed JSON", async () => {
    upstream.answer((req) => ({ json: { received: req.body, list: [1, 2] } }));
    const out = await postJson(`${upstream.url}/step`, { a: 1 }, { timeoutMs: 5_000, headers: { "x-k": "v" } });
    expect(out).toEqual({ received: { a: 1 }, list: [1, 2] });
    expect(upstream.requests[0]!.headers["x-k"]).toBe("v");
  });

  it("keeps the JSON content type even when headers try to change it", async () => {
    upstream.answer(() => ({ json: 1 }));
    await postJson(`${upstream.url}/step`, {}, { timeoutMs: 5_000, headers: { "Content-Type": "text/plain" } });
    expect(upstream.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("fails as a timeout when the endpoint never answers", async () => {
    upstream.answer(() => "hang");
    await expect(postJson(`${upstream.url}/step`, {}, { timeoutMs: 200 })).rejects.toMatchObject({
      kind: "timeout",
      retryable: true,
    });
  });

  it("fails as a timeout when the body stalls after the headers", async () => {
    upstream.answer(() => "stall");
    await expect(postJson(`${upstream.url}/step`, {}, { timeoutMs: 200 })).rejects.toMatchObject({ kind: "timeout" });
  });

  it("fails as a retryable error when the connection drops mid-body", async () => {
    upstream.answer(() => "reset");
    await expect(postJson(`${upstream.url}/step`, {}, { timeoutMs: 5_000 })).rejects.toMatchObject({
      kind: "error",
      retryable: true,
    });
  });

  it("refuses an answer over 8 MiB as a non-retryable error", async () => {
    upstream.answer(() => ({ json: { content: "x".repeat(9 * 1024 * 1024) } }));
    await expect(postJson(`${upstream.url}/step`, {}, { timeoutMs: 10_000 })).rejects.toMatchObject({
      kind: "error",
      retryable: false,
    });
  });

  it("fails at once when the signal is already aborted, without sending", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      postJson(`${upstream.url}/step`, {}, { timeoutMs: 5_000, signal: controller.signal }),
    ).rejects.toMatchObject({ kind: "timeout" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("keeps the upstream error body out of everything but the internal message", async () => {
    upstream.answer(() => ({ status: 503, text: "db password is hunter2", contentType: "text/plain" }));
    const err = (await postJson(`${upstream.url}/step`, {}, { timeoutMs: 5_000 }).catch((e) => e)) as RuntimeError;
    expect(err).toBeInstanceOf(RuntimeError);
    expect(err).toMatchObject({ kind: "error", retryable: true });
    expect(err.message).toContain("hunter2"); // for the logs
    const shown = toApiError(err);
    expect(shown).toMatchObject({ code: "upstream_error", status: 502 });
    expect(JSON.stringify({ message: shown.message, details: shown.details })).not.toContain("hunter2");
  });

  it("fails as a non-retryable error on an unusable URL", async () => {
    for (const url of ["http://", "ftp://127.0.0.1/x"])
      await expect(postJson(url, {}, { timeoutMs: 5_000 })).rejects.toMatchObject({ kind: "error", retryable: false });
  });
});

describe("upstream guard (lib/net/upstream-guard.ts)", () => {
  /** A fake upstream of its own: a new origin, so no connection pooled by earlier tests is reused. */
  async function withoutPrivateUpstreams(fn: (fresh: FakeUpstream) => Promise<void>) {
    const fresh = await startFakeUpstream();
    process.env.ALLOW_PRIVATE_UPSTREAMS = "false";
    resetEnvCache();
    try {
      await fn(fresh);
    } finally {
      process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
      resetEnvCache();
      await fresh.close();
    }
  }

  it("refuses a loopback upstream without ALLOW_PRIVATE_UPSTREAMS: final, and the error names the setting", async () => {
    await withoutPrivateUpstreams(async (fresh) => {
      const err = (await generateReply(config({ url: `${fresh.url}/reply` }), input()).catch((e) => e)) as RuntimeError;
      expect(err).toBeInstanceOf(RuntimeError);
      expect(err).toMatchObject({ kind: "error", retryable: false });
      const expected =
        "upstream 127.0.0.1 is a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add the host to UPSTREAM_ALLOWLIST";
      expect(err.message).toBe(expected);
      // Our own words, so the caller may see them (the message's error, the step's error).
      expect(toApiError(err)).toMatchObject({ code: "upstream_error", status: 502, message: expected });
      expect(fresh.requests).toHaveLength(0);
    });
  });

  it("refuses an always-forbidden address whatever the setting", async () => {
    // 0.0.0.0 would reach this machine: a broken guard shows up as a request to the fake upstream.
    const port = new URL(upstream.url).port;
    const err = (await postJson(`http://0.0.0.0:${port}/step`, {}, { timeoutMs: 5_000 }).catch(
      (e) => e,
    )) as RuntimeError;
    expect(err).toMatchObject({ kind: "error", retryable: false });
    expect(err.message).toBe("upstream address 0.0.0.0 is an unspecified address and always refused");
    expect(upstream.requests).toHaveLength(0);
  });
});
