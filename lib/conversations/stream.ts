// Streamed replies (docs/api.md "Streaming replies (SSE)"), the domain half: what a streaming
// trigger and a followed message emit, as async iterables of events. The HTTP half (lib/http/sse.ts)
// writes them as Server-Sent Events. The reply itself is produced and stored exactly as for a sync
// trigger (./replies.ts: in process, under a lease): a consumer that leaves early stops only its
// own events, never the reply.
import { env } from "../env";
import { isApiError, type ApiError } from "../errors";
import type { Agent } from "../generated/prisma/client";
import { getMessage } from "./sessions";
import { awaitReply, startConversation, type ConversationTrigger } from "./trigger";

/** The sync trigger's answer (status 200), the final event of a streamed trigger. */
export type ReplyBody = Awaited<ReturnType<typeof awaitReply>>["body"];
export type MessageBody = Awaited<ReturnType<typeof getMessage>>;

export type ReplyEvent =
  | { event: "delta"; data: { content: string } }
  | { event: "message"; data: ReplyBody | MessageBody }
  /** The error the sync trigger would answer (an ApiError), or an unexpected failure. */
  | { event: "error"; error: unknown };

/**
 * Events pushed by a producer and read by one consumer. Once the consumer has left (it stopped
 * iterating: the client disconnected), pushes are dropped, so nothing piles up.
 */
class EventQueue<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private ended = false;
  private left = false;
  private wake?: () => void;

  push(item: T) {
    if (this.ended || this.left) return;
    this.items.push(item);
    this.wake?.();
  }

  end() {
    this.ended = true;
    this.wake?.();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  async next(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) return { value: item, done: false };
      if (this.ended || this.left) return { value: undefined, done: true };
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** The consumer left: takes effect at once, even while `next` is waiting. */
  async return(): Promise<IteratorResult<T, undefined>> {
    this.left = true;
    this.items = [];
    this.wake?.();
    return { value: undefined, done: true };
  }
}

/**
 * A conversational trigger whose reply is streamed: validates and stores it as the sync trigger
 * does (its 4xx are thrown before anything is streamed), then emits the reply's text deltas and one
 * final `message` (the sync trigger's answer) or `error` (the ApiError it would answer, bounded by
 * the same wait). `outcome` settles with that final answer whether or not anyone still reads the
 * events (Idempotency-Key keeps it).
 */
export async function converseStream(opts: ConversationTrigger & { waitMs?: number }) {
  const queue = new EventQueue<ReplyEvent>();
  const { task, reply } = await startConversation(opts, (content) => queue.push({ event: "delta", data: { content } }));
  const outcome: Promise<ReplyBody | ApiError> = awaitReply(task, reply, opts.waitMs).then(
    ({ body }) => body,
    (e: unknown) => {
      if (isApiError(e)) return e;
      throw e;
    },
  );
  void outcome
    .then(
      (final) => queue.push(isApiError(final) ? { event: "error", error: final } : { event: "message", data: final }),
      (e: unknown) => queue.push({ event: "error", error: e }),
    )
    .finally(() => queue.end());
  return { sessionId: task.sessionId, messageId: task.messageId, events: queue as AsyncIterable<ReplyEvent>, outcome };
}

/**
 * How long a followed message is waited for: just under the server's request time limit, so that
 * the stream ends with an event rather than being cut.
 */
export const followLimitMs = () => {
  const limit = env().REQUEST_TIMEOUT_MS;
  return Math.max(limit / 2, limit - 5_000);
};

/**
 * Follows one message (`GET .../messages/{id}` with `Accept: text/event-stream`): its 404s are
 * thrown at once; then one `message` event with the message object as soon as it is no longer
 * processing (at once when it already ended). The wait is the long poll's (./waiters.ts: this
 * process's producer wakes it at once, another process's completion is seen by the shared poller);
 * when `limitMs` runs out first, the message as it stands (`processing`) is the final event.
 */
export async function followMessage(opts: { agent: Agent; sessionId: string; messageId: string; limitMs?: number }) {
  const first = await getMessage(opts);
  const until = Date.now() + (opts.limitMs ?? followLimitMs());
  async function* events(): AsyncGenerator<ReplyEvent> {
    let message = first;
    while (message.status === "processing" && Date.now() < until) {
      message = await getMessage({ ...opts, waitMs: until - Date.now() });
    }
    yield { event: "message", data: message };
  }
  return { events: events() };
}
