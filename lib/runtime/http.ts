// Plain JSON-over-HTTP upstreams: the customer-hosted `http` runtime and workflow `http` steps.
import { z } from "zod";
import { findUpstreamRefusal, guardedFetch } from "../net/upstream-guard";
import { readStreamCapped } from "../streams";
import { upstreamHeaders, type SecretLookup } from "./credentials";
import type { HttpRuntime } from "./schema";
import {
  abortedError,
  deadline,
  refusedError,
  retryableStatus,
  RuntimeError,
  usage,
  type ReplyInput,
  type ReplyOutput,
} from "./types";

/** An upstream answer above this is refused rather than buffered: replies are chat-sized. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** How much of an error body goes into the (internal) error message. */
const ERROR_SNIPPET_CHARS = 300;

/** Body read with a byte cap; throws RuntimeError when the upstream sends more. */
async function readCapped(res: Response, cap: number): Promise<string> {
  const body = await readStreamCapped(
    res.body,
    cap,
    () => new RuntimeError("error", `upstream response over ${cap} bytes`, false),
  );
  return body.toString("utf8");
}

const causeCode = (e: unknown): string | undefined => {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
};

/** POST JSON with a timeout through the upstream guard (lib/net/upstream-guard.ts); returns the
 *  parsed JSON answer. Any failure is a RuntimeError; a refused address is a final one. */
export async function postJson(
  url: string,
  body: unknown,
  opts: {
    timeoutMs: number;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    secrets?: SecretLookup;
    /** Sent as `Idempotency-Key` unless the configured headers name one. */
    idempotencyKey?: string;
  },
): Promise<unknown> {
  if (opts.signal?.aborted) throw abortedError();
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new RuntimeError("error", `not an http(s) URL: ${url}`, false);
  // Before the deadline starts: a missing secret is a final error of the configuration.
  const headers = new Headers(await upstreamHeaders(opts.headers, opts.secrets));
  const limit = deadline(opts.timeoutMs, opts.signal);

  headers.set("content-type", "application/json");
  headers.set("accept", "application/json");
  if (opts.idempotencyKey && !headers.has("idempotency-key")) headers.set("idempotency-key", opts.idempotencyKey);
  try {
    const res = await guardedFetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: limit.signal,
    });
    if (!res.ok) {
      const snippet = (await readCapped(res, 64 * 1024).catch(() => "")).slice(0, ERROR_SNIPPET_CHARS);
      throw new RuntimeError("error", `upstream answered HTTP ${res.status}: ${snippet}`, retryableStatus(res.status));
    }
    const text = await readCapped(res, MAX_RESPONSE_BYTES);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RuntimeError("error", `upstream answered HTTP ${res.status} with invalid JSON`, false);
    }
  } catch (e) {
    // Order matters: the abort surfaces as an AbortError from fetch or from the body read.
    if (limit.timedOut()) throw new RuntimeError("timeout", `no answer within ${opts.timeoutMs} ms`, true);
    if (opts.signal?.aborted) throw abortedError();
    if (e instanceof RuntimeError) throw e;
    const refused = findUpstreamRefusal(e);
    if (refused) throw refusedError(refused);
    const code = causeCode(e);
    if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
      throw new RuntimeError("timeout", `upstream ${code}`, true);
    // Anything with a socket-level code (ECONNREFUSED, ECONNRESET, ENOTFOUND, UND_ERR_SOCKET) may pass later.
    if (code) throw new RuntimeError("error", `upstream connection failed: ${code}`, true);
    throw new RuntimeError("error", `upstream request failed: ${(e as Error)?.message ?? String(e)}`, false);
  } finally {
    limit.dispose();
  }
}

const Count = z.number().int().min(0);

/** What a customer endpoint answers; extra fields are ignored. */
export const HttpReplyBody = z.object({
  content: z.string(),
  model: z.string().nullish(),
  token_usage: z.object({ prompt_tokens: Count, completion_tokens: Count, total_tokens: Count.optional() }).nullish(),
});

export async function httpReply(config: z.infer<typeof HttpRuntime>, input: ReplyInput): Promise<ReplyOutput> {
  const answer = await postJson(
    config.url,
    {
      agent_id: input.agentId,
      session_id: input.sessionId,
      message_id: input.messageId,
      message: input.message,
      attachments: input.attachments,
      metadata: input.metadata,
      history: input.history,
    },
    { timeoutMs: config.timeout_ms, headers: config.headers, signal: input.signal, secrets: input.secrets },
  );
  const parsed = HttpReplyBody.safeParse(answer);
  if (!parsed.success)
    throw new RuntimeError("error", `upstream answer does not match {content, model?, token_usage?}`, false);
  const u = parsed.data.token_usage;
  const token_usage = u ? usage(u.prompt_tokens, u.completion_tokens) : usage(0, 0);
  if (u?.total_tokens !== undefined) token_usage.total_tokens = u.total_tokens;
  return { content: parsed.data.content, model: parsed.data.model ?? null, token_usage, cost: 0 };
}
