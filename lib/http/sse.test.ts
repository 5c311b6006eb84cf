import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../errors";
import { formatEvent, sseResponse, wantsEventStream, type SseEvent } from "./sse";

const req = (accept?: string) => new Request("http://x/", { headers: accept ? { accept } : {} });

async function* events(list: SseEvent[]) {
  for (const e of list) yield e;
}

afterEach(() => vi.useRealTimers());

describe("wantsEventStream", () => {
  it.each([
    ["text/event-stream", true],
    ["application/json, text/event-stream;q=0.5", true],
    ["Text/Event-Stream", true],
    ["text/event-stream;q=0", false],
    ["application/json", false],
    [undefined, false],
    ["*/*", false],
  ])("%s -> %s", (accept, expected) => expect(wantsEventStream(req(accept))).toBe(expected));
});

describe("sseResponse", () => {
  it("answers text/event-stream without buffering, a keep-alive first, each event as one JSON data line", async () => {
    const res = sseResponse(
      events([
        { event: "delta", data: { content: "a\nb" } },
        { event: "message", data: { ok: true } },
      ]),
      { requestId: "req_1" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(await res.text()).toBe(
      ': keep-alive\n\nevent: delta\ndata: {"content":"a\\nb"}\n\nevent: message\ndata: {"ok":true}\n\n',
    );
  });

  it("renders an error as the error envelope, and ends with one when the events throw", async () => {
    expect(formatEvent({ event: "error", error: new ApiError("upstream_error", "failed", { x: 1 }) }, "req_2")).toBe(
      'event: error\ndata: {"error":{"code":"upstream_error","message":"failed","request_id":"req_2","doc_url":"/docs/api#error-upstream_error","details":{"x":1}}}\n\n',
    );
    async function* failing(): AsyncGenerator<SseEvent> {
      yield { event: "delta", data: { content: "x" } };
      throw new ApiError("service_unavailable", "down");
    }
    const text = await sseResponse(failing(), { requestId: "req_3" }).text();
    expect(text).toContain('event: error\ndata: {"error":{"code":"service_unavailable"');
  });

  it("sends a keep-alive comment every interval while waiting", async () => {
    vi.useFakeTimers();
    let release!: () => void;
    const waiting = new Promise<void>((r) => (release = r));
    async function* slow(): AsyncGenerator<SseEvent> {
      await waiting;
      yield { event: "message", data: 1 };
    }
    const reader = sseResponse(slow(), { requestId: "r", keepAliveMs: 15_000 }).body!.getReader();
    const decoder = new TextDecoder();
    const read = async () => decoder.decode((await reader.read()).value);
    expect(await read()).toBe(": keep-alive\n\n");
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await read()).toBe(": keep-alive\n\n");
    release();
    expect(await read()).toBe("event: message\ndata: 1\n\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("stops reading the events when the client goes away", async () => {
    const returned = vi.fn();
    const iterable: AsyncIterable<SseEvent> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<SseEvent>>(() => {}),
        return: async () => {
          returned();
          return { value: undefined, done: true };
        },
      }),
    };
    const aborter = new AbortController();
    const res = sseResponse(iterable, { requestId: "r", signal: aborter.signal });
    const reader = res.body!.getReader();
    await reader.read();
    aborter.abort();
    expect(returned).toHaveBeenCalledTimes(1);
    expect((await reader.read()).done).toBe(true);
  });
});
