// Streamed replies from the runtimes (ReplyInput.onDelta): token deltas from an OpenAI-compatible
// upstream (`stream: true`), one piece from the runtimes that do not stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { generateReply, RuntimeError, type ReplyInput } from "./index";
import { gate, startFakeOpenAi, type FakeOpenAi } from "../../test-support/runtime";

let upstream: FakeOpenAi;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  resetEnvCache();
  upstream = await startFakeOpenAi("streamy");
});
afterAll(() => upstream.close());

const input = (onDelta: (c: string) => void): ReplyInput => ({
  agentId: "agt_1",
  sessionId: "ses_1",
  messageId: "msg_1",
  message: "Say hello",
  attachments: [],
  metadata: {},
  history: [],
  onDelta,
});
const openai = () => ({ type: "openai" as const, base_url: upstream.url, model: "m", timeout_ms: 5_000 });

describe("streamed replies", () => {
  it("openai: hands on each delta as it arrives, and returns their concatenation with the usage", async () => {
    const held = gate();
    upstream.script({ pieces: ["Hel", "lo", held.promise, ", wor", "ld"], usage: [7, 4] });
    const deltas: string[] = [];
    let firstTwo!: () => void;
    const sawFirstTwo = new Promise<void>((r) => (firstTwo = r));
    const reply = generateReply(
      openai(),
      input((c) => {
        deltas.push(c);
        if (deltas.length === 2) firstTwo();
      }),
    );
    // The first deltas arrive while the upstream still holds the rest back: they are not buffered.
    await sawFirstTwo;
    expect(deltas).toEqual(["Hel", "lo"]);
    held.open();
    const out = await reply;
    expect(deltas).toEqual(["Hel", "lo", ", wor", "ld"]);
    expect(out).toEqual({
      content: "Hello, world",
      model: "streamy",
      token_usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
      cost: 0,
    });
    expect(upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("openai: without onDelta the request does not stream", async () => {
    upstream.script({ pieces: ["a", "b"] });
    const out = await generateReply(openai(), { ...input(() => {}), onDelta: undefined });
    expect(out.content).toBe("ab");
    expect((upstream.requests.at(-1)!.body as { stream?: boolean }).stream).toBeUndefined();
  });

  it("openai: an upstream error before any delta is a RuntimeError, and nothing is handed on", async () => {
    upstream.script({ pieces: [], error: 400 });
    const deltas: string[] = [];
    const err = await generateReply(
      openai(),
      input((c) => deltas.push(c)),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect((err as RuntimeError).retryable).toBe(false);
    expect(deltas).toEqual([]);
  });

  it("echo: the whole reply as one delta", async () => {
    const deltas: string[] = [];
    const out = await generateReply(
      { type: "echo", delay_ms: 0 },
      input((c) => deltas.push(c)),
    );
    expect(deltas).toEqual(["Echo: Say hello"]);
    expect(out.content).toBe("Echo: Say hello");
  });
});
