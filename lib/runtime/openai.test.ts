import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { complete, generateReply, RuntimeError, toApiError, type ReplyInput } from "./index";
import type { RuntimeConfig } from "./schema";
import { closedPortUrl, startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";

let upstream: FakeUpstream;
const KEY_ENV = "RUNTIME_TEST_OPENAI_KEY";

beforeAll(async () => {
  // The fake upstream listens on 127.0.0.1, a loopback address the upstream guard refuses by default.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  // The variables these tests name as api_key_env: allowed by the operator, as they must be.
  process.env.MODEL_KEY_ENV_ALLOWLIST = `${KEY_ENV},RUNTIME_TEST_UNSET_KEY`;
  resetEnvCache();
  upstream = await startFakeUpstream();
  process.env[KEY_ENV] = "sk-test-123";
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  delete process.env.MODEL_KEY_ENV_ALLOWLIST;
  resetEnvCache();
  await upstream.close();
});
afterEach(() => {
  upstream.requests.length = 0;
});

const config = (over: Partial<Extract<RuntimeConfig, { type: "openai" }>> = {}): RuntimeConfig => ({
  type: "openai",
  base_url: `${upstream.url}/v1`,
  model: "llama-test",
  api_key_env: KEY_ENV,
  system: "You are terse.",
  timeout_ms: 5_000,
  prices: { prompt_per_million: 0.15, completion_per_million: 0.6 },
  ...over,
});

const input = (over: Partial<ReplyInput> = {}): ReplyInput => ({
  agentId: "agt_1",
  sessionId: "ses_1",
  messageId: "msg_1",
  message: "What is 2+2?",
  attachments: [],
  metadata: {},
  history: [],
  ...over,
});

const completion = (content: string, usage?: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "llama-test-0613",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  ...(usage ? { usage } : {}),
});

describe("openai runtime", () => {
  it("sends system prompt, history and message with the key, and prices the usage", async () => {
    upstream.answer(() => ({
      json: completion("4", { prompt_tokens: 1000, completion_tokens: 2000, total_tokens: 3000 }),
    }));
    const history = [
      { role: "user" as const, content: "Hi" },
      { role: "assistant" as const, content: "Hello!" },
    ];
    const out = await generateReply(config(), input({ history }));

    expect(out).toEqual({
      content: "4",
      model: "llama-test-0613",
      token_usage: { prompt_tokens: 1000, completion_tokens: 2000, total_tokens: 3000 },
      // 1000 * 0.15 / 1e6 + 2000 * 0.6 / 1e6
      cost: 0.00135,
    });
    expect(upstream.requests).toHaveLength(1);
    const req = upstream.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.body).toMatchObject({
      model: "llama-test",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello!" },
        { role: "user", content: "What is 2+2?" },
      ],
    });
  });

  it("describes attachments in the user message", async () => {
    upstream.answer(() => ({ json: completion("ok") }));
    const attachments = [
      {
        file_id: "fi_1",
        filename: "report.pdf",
        content_type: "application/pdf",
        size_bytes: 1234,
        url: "http://files.example/fi_1?sig=x",
        url_expires_at: "2030-01-01T00:00:00Z",
      },
    ];
    await generateReply(config({ system: undefined }), input({ attachments }));
    const messages = (upstream.requests[0]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain("What is 2+2?");
    expect(messages[0]!.content).toContain("report.pdf (application/pdf, 1234 bytes): http://files.example/fi_1?sig=x");
  });

  it("reports zero usage and cost when the server sends no usage, and free without prices", async () => {
    upstream.answer(() => ({ json: completion("ok") }));
    const out = await generateReply(config({ prices: undefined }), input());
    expect(out.token_usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(out.cost).toBe(0);
  });

  it("sends a dummy key when the key variable is unset", async () => {
    upstream.answer(() => ({ json: completion("ok") }));
    await generateReply(config({ api_key_env: "RUNTIME_TEST_UNSET_KEY" }), input());
    expect(upstream.requests[0]!.headers.authorization).toBe("Bearer not-needed");
  });

  it("refuses an api_key_env the operator has not allowed, before any request", async () => {
    process.env.RUNTIME_TEST_OTHER_KEY = "sk-must-not-leave";
    try {
      const p = generateReply(config({ api_key_env: "RUNTIME_TEST_OTHER_KEY" }), input());
      await expect(p).rejects.toMatchObject({ kind: "error", retryable: false });
      const err = (await p.catch((e: RuntimeError) => e)) as RuntimeError;
      expect(err.publicMessage).toMatch(/MODEL_KEY_ENV_ALLOWLIST/);
      expect(toApiError(err).message).toMatch(/api_key_secret/);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      delete process.env.RUNTIME_TEST_OTHER_KEY;
    }
  });

  it("never sends the service's own secrets, even when the allowlist names them", async () => {
    process.env.MODEL_KEY_ENV_ALLOWLIST = "AUTH_SECRET";
    resetEnvCache();
    try {
      await expect(generateReply(config({ api_key_env: "AUTH_SECRET" }), input())).rejects.toThrow(
        /MODEL_KEY_ENV_ALLOWLIST: AUTH_SECRET is a setting of the service itself/,
      );
      expect(upstream.requests).toHaveLength(0);
    } finally {
      process.env.MODEL_KEY_ENV_ALLOWLIST = `${KEY_ENV},RUNTIME_TEST_UNSET_KEY`;
      resetEnvCache();
    }
  });

  it("sends an allowed key only to the host its entry names", async () => {
    process.env.MODEL_KEY_ENV_ALLOWLIST = `${KEY_ENV}@api.openai.com`;
    resetEnvCache();
    try {
      await expect(generateReply(config(), input())).rejects.toMatchObject({ retryable: false });
      expect(upstream.requests).toHaveLength(0);
      process.env.MODEL_KEY_ENV_ALLOWLIST = `${KEY_ENV}@127.0.0.1`;
      resetEnvCache();
      upstream.answer(() => ({ json: completion("ok") }));
      await generateReply(config(), input());
      expect(upstream.requests[0]!.headers.authorization).toBe("Bearer sk-test-123");
    } finally {
      process.env.MODEL_KEY_ENV_ALLOWLIST = `${KEY_ENV},RUNTIME_TEST_UNSET_KEY`;
      resetEnvCache();
    }
  });

  it("sends the organization secret named by api_key_secret, and secrets named in headers", async () => {
    upstream.answer(() => ({ json: completion("ok") }));
    const secrets = { "openai-prod": "sk-from-a-secret", "org-id": "org-123" } as Record<string, string>;
    const lookup = async (name: string) => secrets[name] ?? Promise.reject(new Error(`no ${name}`));
    await generateReply(
      config({
        api_key_env: undefined,
        api_key_secret: "openai-prod",
        headers: { "OpenAI-Organization": "{{secrets.org-id}}" },
      }),
      input({ secrets: lookup }),
    );
    expect(upstream.requests[0]!.headers.authorization).toBe("Bearer sk-from-a-secret");
    expect(upstream.requests[0]!.headers["openai-organization"]).toBe("org-123");
  });

  it("fails without a request when a named secret is missing", async () => {
    const p = generateReply(config({ api_key_env: undefined, api_key_secret: "gone" }), input());
    await expect(p).rejects.toMatchObject({ kind: "error", retryable: false });
    expect(((await p.catch((e: RuntimeError) => e)) as RuntimeError).publicMessage).toMatch(/"gone" is not set/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("fails as a retryable timeout when the server never answers", async () => {
    upstream.answer(() => "hang");
    const p = generateReply(config({ timeout_ms: 200 }), input());
    await expect(p).rejects.toBeInstanceOf(RuntimeError);
    await expect(p).rejects.toMatchObject({ kind: "timeout", retryable: true });
    // maxRetries 0: our queue retries, the client never does
    expect(upstream.requests).toHaveLength(1);
  });

  it("fails as a timeout when the body stalls after the headers", async () => {
    upstream.answer(() => "stall");
    await expect(generateReply(config({ timeout_ms: 200 }), input())).rejects.toMatchObject({
      kind: "timeout",
      retryable: true,
    });
  });

  it("fails as a retryable error when the connection drops mid-body", async () => {
    upstream.answer(() => "reset");
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: true });
  });

  it("fails as a retryable error on HTTP 500 without retrying", async () => {
    upstream.answer(() => ({ status: 500, json: { error: { message: "secret upstream detail" } } }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: true });
    expect(upstream.requests).toHaveLength(1);
  });

  it("fails as a retryable error on HTTP 429", async () => {
    upstream.answer(() => ({ status: 429, json: { error: { message: "slow down" } } }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: true });
  });

  it("fails as a non-retryable error on HTTP 400", async () => {
    upstream.answer(() => ({ status: 400, json: { error: { message: "bad model" } } }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a non-retryable error when the answer is not JSON", async () => {
    upstream.answer(() => ({ text: "<html>oops</html>", contentType: "text/html" }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a non-retryable error on malformed JSON", async () => {
    upstream.answer(() => ({ text: '{"choices": [', contentType: "application/json" }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a non-retryable error when the JSON is not a chat completion", async () => {
    upstream.answer(() => ({ json: { choices: [] } }));
    await expect(generateReply(config(), input())).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a retryable error when the connection is refused", async () => {
    const url = await closedPortUrl();
    await expect(generateReply(config({ base_url: `${url}/v1` }), input())).rejects.toMatchObject({
      kind: "error",
      retryable: true,
    });
  });

  it("stops waiting when the caller's signal aborts", async () => {
    upstream.answer(() => "hang");
    const controller = new AbortController();
    const p = generateReply(config({ timeout_ms: 600_000 }), input({ signal: controller.signal }));
    await expect.poll(() => upstream.requests.length).toBe(1);
    controller.abort();
    await expect(p).rejects.toMatchObject({ kind: "timeout", retryable: true });
  });

  it("completes a prompt with the step's system prompt replacing the runtime's", async () => {
    upstream.answer(() => ({
      json: completion("summary", { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }),
    }));
    const out = await complete(config(), "Summarise: abc", { system: "Summarise in one line." });
    expect(out.content).toBe("summary");
    expect(out.token_usage.total_tokens).toBe(15);
    expect(upstream.requests[0]!.body).toMatchObject({
      messages: [
        { role: "system", content: "Summarise in one line." },
        { role: "user", content: "Summarise: abc" },
      ],
    });
  });
});

describe("upstream guard (lib/net/upstream-guard.ts)", () => {
  it("refuses a loopback base_url without ALLOW_PRIVATE_UPSTREAMS, for replies and llm-step completions", async () => {
    // A server of its own: a new origin, so no connection pooled by earlier tests is reused.
    const fresh = await startFakeUpstream();
    process.env.ALLOW_PRIVATE_UPSTREAMS = "false";
    resetEnvCache();
    try {
      const expected =
        "upstream 127.0.0.1 is a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add the host to UPSTREAM_ALLOWLIST";
      const local = config({ base_url: `${fresh.url}/v1` });
      for (const call of [() => generateReply(local, input()), () => complete(local, "Summarise: abc")]) {
        const err = (await call().catch((e) => e)) as RuntimeError;
        expect(err).toBeInstanceOf(RuntimeError);
        expect(err).toMatchObject({ kind: "error", retryable: false, message: expected });
        expect(toApiError(err).message).toBe(expected);
      }
      expect(fresh.requests).toHaveLength(0);
    } finally {
      process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
      resetEnvCache();
      await fresh.close();
    }
  });

  it("refuses an always-forbidden base_url whatever the setting", async () => {
    // [::] would reach this machine: a broken guard shows up as a request to the fake upstream.
    const port = new URL(upstream.url).port;
    const err = (await generateReply(config({ base_url: `http://[::]:${port}/v1` }), input()).catch(
      (e) => e,
    )) as RuntimeError;
    expect(err).toMatchObject({ kind: "error", retryable: false });
    expect(err.message).toBe("upstream address :: is an unspecified address and always refused");
    expect(upstream.requests).toHaveLength(0);
  });
});
