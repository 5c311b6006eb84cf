// Server-Sent Events answers (docs/api.md "Streaming replies (SSE)"): an async iterable of events
// becomes a `text/event-stream` Response, written as the events come (no buffering by the server,
// a proxy or a compression layer), with a comment line every 15 s so that idle proxies keep the
// connection. The stream ends after the iterable does; a client that disconnects stops the
// iteration (and nothing else: the domain decides what goes on without it).
import type { ApiError } from "../errors";
import { apiErrorOf, errorBody, HttpAnswer } from "./respond";

/** One event: `event: <name>` and its data as one JSON line; `error` is rendered as the error envelope. */
export type SseEvent = { event: string; data: unknown } | { event: "error"; error: unknown };

export const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ": keep-alive\n\n";

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: no compression layer may hold the events back.
  "cache-control": "no-cache, no-transform",
  // nginx: pass each event on as it comes.
  "x-accel-buffering": "no",
} as const;

/** Whether the request asks for an event stream (`Accept: text/event-stream`, not refused with q=0). */
export function wantsEventStream(req: Request): boolean {
  return (req.headers.get("accept") ?? "").split(",").some((range) => {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type !== "text/event-stream") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The wire form of one event (JSON never holds a raw newline, so the data is one line). */
export function formatEvent(e: SseEvent, requestId: string): string {
  const data = "error" in e ? errorBody(apiErrorOf(e.error, requestId), requestId) : e.data;
  return `event: ${e.event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Streams `events`: a keep-alive comment at once (the headers go out without waiting for the first
 * event) and every `keepAliveMs`, each event as it comes, then the end. An iterable that throws
 * ends with an `error` event. `signal` (the request's) or a cancelled body stops the iteration.
 */
export function sseResponse(
  events: AsyncIterable<SseEvent>,
  opts: {
    requestId: string;
    headers?: HeadersInit;
    signal?: AbortSignal;
    keepAliveMs?: number;
    /** Awaited after the last event, before the stream ends (e.g. the answer kept for an Idempotency-Key). */
    beforeEnd?: Promise<unknown>;
  },
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const send = (text: string) => {
    if (finished) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      stop(); // the stream was closed under us: the client is gone
    }
  };
  const finish = () => {
    if (finished) return false;
    finished = true;
    clearInterval(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    return true;
  };
  /** The client left: stop reading the events (not awaited: the iterable may be waiting). */
  const stop = () => {
    if (!finish()) return;
    iterator.return?.().catch(() => {});
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  };
  const onAbort = () => stop();
  const pump = async () => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done || finished) break;
        send(formatEvent(next.value, opts.requestId));
      }
    } catch (err) {
      send(formatEvent({ event: "error", error: err }, opts.requestId));
    }
    await opts.beforeEnd?.catch(() => {});
    if (finish()) controller.close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      send(KEEP_ALIVE);
      timer = setInterval(() => send(KEEP_ALIVE), opts.keepAliveMs ?? KEEP_ALIVE_MS);
      if (opts.signal?.aborted) return stop();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      void pump();
    },
    cancel: () => stop(),
  });
  const headers = new Headers(opts.headers);
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
  return new Response(body, { status: 200, headers });
}

/**
 * A route's answer that is an event stream (the route wrapper turns it into the Response).
 * `outcome`, when given, is the answer the same request would have had without streaming, kept
 * for an Idempotency-Key (lib/http/idempotency.ts) once it is known: an HttpAnswer, or the ApiError of
 * an error that was committed. It must settle even when nobody reads the events any more.
 */
export class EventStreamAnswer extends HttpAnswer {
  /** Set by lib/http/idempotency.ts: the stream ends once the answer is kept, so a repeat after it replays. */
  kept?: Promise<unknown>;

  constructor(
    readonly events: AsyncIterable<SseEvent>,
    readonly outcome?: Promise<HttpAnswer | ApiError>,
    headers?: HeadersInit,
  ) {
    super(null, 200, headers);
    // Observed here: without an Idempotency-Key nobody else waits for it.
    outcome?.catch(() => {});
  }

  response(req: Request, requestId: string): Response {
    return sseResponse(this.events, { requestId, headers: this.headers, signal: req.signal, beforeEnd: this.kept });
  }
}
