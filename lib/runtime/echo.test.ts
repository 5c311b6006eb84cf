import { describe, expect, it } from "vitest";
import { complete, generateReply, RuntimeError, type ReplyInput } from "./index";

const input = (over: Partial<ReplyInput> = {}): ReplyInput => ({
  agentId: "agt_1",
  sessionId: "ses_1",
  messageId: "msg_1",
  message: "hello there world",
  attachments: [],
  metadata: {},
  history: [],
  ...over,
});

describe("echo runtime", () => {
  it("replies deterministically with word-count token usage and zero cost", async () => {
    const history = [
      { role: "user" as const, content: "first question" },
      { role: "assistant" as const, content: "Echo: first question" },
    ];
    const a = await generateReply({ type: "echo", delay_ms: 0 }, input({ history }));
    const b = await generateReply({ type: "echo", delay_ms: 0 }, input({ history }));
    expect(a).toEqual(b);
    expect(a).toEqual({
      content: "Echo: hello there world",
      model: "echo",
      // prompt: 3 words of the message + 2 + 3 of the history; completion: 4 words of the reply
      token_usage: { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 },
      cost: 0,
    });
  });

  it("names the attachments in the reply", async () => {
    const attachments = [
      { file_id: "fi_1", filename: "report.pdf", content_type: "application/pdf", size_bytes: 10 },
      { file_id: "fi_2", filename: "data.csv", content_type: "text/csv", size_bytes: 5 },
    ];
    const out = await generateReply({ type: "echo", delay_ms: 0 }, input({ attachments }));
    expect(out.content).toBe("Echo: hello there world [attachments: report.pdf, data.csv]");
  });

  it("applies schema defaults to a stored config without delay_ms", async () => {
    const out = await generateReply({ type: "echo" } as never, input());
    expect(out.content).toBe("Echo: hello there world");
  });

  it("rejects an invalid config as a non-retryable error", async () => {
    await expect(generateReply({ type: "echo", delay_ms: -1 }, input())).rejects.toMatchObject({
      kind: "error",
      retryable: false,
    });
  });

  it("fails with a non-retryable error when fail is error", async () => {
    const p = generateReply({ type: "echo", delay_ms: 0, fail: "error" }, input());
    await expect(p).rejects.toBeInstanceOf(RuntimeError);
    await expect(p).rejects.toMatchObject({ kind: "error", retryable: false });
  });

  it("fails as a retryable timeout when fail is timeout", async () => {
    await expect(
      generateReply({ type: "echo", delay_ms: 0, fail: "timeout", timeout_ms: 100 }, input()),
    ).rejects.toMatchObject({ kind: "timeout", retryable: true });
  });

  it("fails as a timeout when the abort signal fires during the fail timeout hang", async () => {
    const controller = new AbortController();
    const p = generateReply(
      { type: "echo", delay_ms: 0, fail: "timeout", timeout_ms: 600_000 },
      input({ signal: controller.signal }),
    );
    controller.abort();
    await expect(p).rejects.toMatchObject({ kind: "timeout", retryable: true });
  });

  it("fails as a timeout when the abort signal fires during delay_ms", async () => {
    const controller = new AbortController();
    const p = generateReply({ type: "echo", delay_ms: 600_000 }, input({ signal: controller.signal }));
    controller.abort();
    await expect(p).rejects.toMatchObject({ kind: "timeout" });
  });

  it("fails as a timeout when delay_ms exceeds timeout_ms", async () => {
    await expect(generateReply({ type: "echo", delay_ms: 5_000, timeout_ms: 100 }, input())).rejects.toMatchObject({
      kind: "timeout",
      retryable: true,
    });
  });

  it("replies after a delay below timeout_ms", async () => {
    const out = await generateReply({ type: "echo", delay_ms: 10, timeout_ms: 5_000 }, input());
    expect(out.content).toBe("Echo: hello there world");
  });

  it("completes a prompt with complete()", async () => {
    const out = await complete({ type: "echo", delay_ms: 0 }, "summarise this text");
    expect(out).toEqual({
      content: "Echo: summarise this text",
      model: "echo",
      token_usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      cost: 0,
    });
  });

  it("refuses complete() with an http runtime as a non-retryable error", async () => {
    await expect(
      complete({ type: "http", url: "http://127.0.0.1:9/", timeout_ms: 1000 }, "prompt"),
    ).rejects.toMatchObject({ kind: "error", retryable: false });
  });
});
