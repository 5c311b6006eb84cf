// Any OpenAI-compatible chat completions endpoint, through the official `openai` client.
import OpenAI from "openai";
import { z } from "zod";
import { findUpstreamRefusal, guardedFetch } from "../net/upstream-guard";
import { openAiKey, upstreamHeaders, type SecretLookup } from "./credentials";
import type { OpenAiRuntime } from "./schema";
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

type OpenAiConfig = z.infer<typeof OpenAiRuntime>;
type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

const Count = z.number().int().min(0);

/** The part of a chat completion we rely on; checked because compatible servers vary. */
const Completion = z.object({
  model: z.string().nullish(),
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
  usage: z.object({ prompt_tokens: Count, completion_tokens: Count, total_tokens: Count.optional() }).nullish(),
});

function describeAttachments(attachments: unknown[]): string {
  const lines = attachments.map((a) => {
    const f = (a ?? {}) as Record<string, unknown>;
    return `- ${String(f.filename ?? f.file_id ?? "file")} (${String(f.content_type ?? "unknown type")}, ${String(
      f.size_bytes ?? "?",
    )} bytes): ${String(f.url ?? "")}`;
  });
  return lines.length ? `\n\nAttached files:\n${lines.join("\n")}` : "";
}

/** Prices are per million tokens; rounded to 1e-9 so float noise never reaches the API. */
function costOf(config: OpenAiConfig, prompt: number, completion: number): number {
  if (!config.prices) return 0;
  const raw = (prompt * config.prices.prompt_per_million + completion * config.prices.completion_per_million) / 1e6;
  return Math.round(raw * 1e9) / 1e9;
}

/** The innermost cause's code or message (fetch wraps ECONNREFUSED two levels deep). */
function rootCause(e: unknown): string {
  let cur = e as { cause?: unknown; code?: unknown; message?: unknown } | undefined;
  while (cur?.cause && typeof cur.cause === "object") cur = cur.cause as typeof cur;
  return String(cur?.code ?? cur?.message ?? e);
}

function mapError(e: unknown, config: OpenAiConfig, signal?: AbortSignal): RuntimeError {
  if (e instanceof RuntimeError) return e;
  const refused = findUpstreamRefusal(e);
  if (refused) return refusedError(refused);
  if (e instanceof OpenAI.APIConnectionTimeoutError)
    return new RuntimeError("timeout", `no answer within ${config.timeout_ms} ms`, true);
  if (e instanceof OpenAI.APIUserAbortError || signal?.aborted) return abortedError();
  if (e instanceof OpenAI.APIConnectionError)
    return new RuntimeError("error", `connection failed: ${rootCause(e)}`, true);
  if (e instanceof OpenAI.APIError) {
    const status = e.status;
    return new RuntimeError("error", `HTTP ${status ?? "?"}: ${e.message}`, status ? retryableStatus(status) : false);
  }
  // A JSON-typed answer that does not parse will not parse next time either; anything else here
  // (e.g. the socket dropped mid-body: "terminated") is transport trouble.
  const message = `bad answer: ${(e as Error)?.message ?? String(e)}`;
  return new RuntimeError("error", message, !(e instanceof SyntaxError));
}

/** The part of a streamed chunk we rely on: a text delta, and the usage some servers send last. */
const Chunk = z.object({
  model: z.string().nullish(),
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).nullish() })).nullish(),
  usage: Completion.shape.usage,
});

/** Reads a streamed chat completion (`stream: true`), handing each text delta on as it arrives. */
async function readStream(
  stream: AsyncIterable<unknown>,
  onDelta: (content: string) => void,
): Promise<z.infer<typeof Completion>> {
  let content = "";
  let model: string | null | undefined;
  let usage: z.infer<typeof Completion>["usage"];
  let chunks = 0;
  for await (const raw of stream) {
    const parsed = Chunk.safeParse(raw);
    if (!parsed.success) throw new RuntimeError("error", "a streamed chunk is not a chat completion chunk", false);
    chunks++;
    model ??= parsed.data.model;
    usage = parsed.data.usage ?? usage;
    const delta = parsed.data.choices?.[0]?.delta?.content;
    if (delta) {
      content += delta;
      onDelta(delta);
    }
  }
  if (chunks === 0) throw new RuntimeError("error", "the streamed answer had no chunks", true);
  return { model, choices: [{ message: { content } }], usage };
}

async function chat(
  config: OpenAiConfig,
  messages: ChatMessage[],
  opts: { signal?: AbortSignal; onDelta?: (content: string) => void; secrets?: SecretLookup },
): Promise<ReplyOutput> {
  const { signal, onDelta } = opts;
  if (signal?.aborted) throw abortedError();
  const client = new OpenAI({
    apiKey: await openAiKey(config, opts.secrets),
    defaultHeaders: await upstreamHeaders(config.headers, opts.secrets),
    baseURL: config.base_url,
    timeout: config.timeout_ms,
    // Our job queue owns retries (with backoff and idempotency); the client must not retry on its own.
    maxRetries: 0,
    // base_url is the agent owner's choice: refuse metadata, link-local and (unless allowed) private addresses.
    fetch: guardedFetch,
  });
  // The client's own timeout stops at the response headers; this deadline also covers the body.
  const limit = deadline(config.timeout_ms, signal);
  let raw: unknown;
  try {
    raw = onDelta
      ? await readStream(
          await client.chat.completions.create(
            // Usage comes in a last chunk when asked for; servers that ignore the option send none (0 tokens).
            { model: config.model, messages, stream: true, stream_options: { include_usage: true } },
            { signal: limit.signal },
          ),
          onDelta,
        )
      : await client.chat.completions.create({ model: config.model, messages }, { signal: limit.signal });
  } catch (e) {
    if (limit.timedOut()) throw new RuntimeError("timeout", `no answer within ${config.timeout_ms} ms`, true);
    throw mapError(e, config, signal);
  } finally {
    limit.dispose();
  }
  const parsed = Completion.safeParse(raw);
  if (!parsed.success) throw new RuntimeError("error", "answer is not a chat completion with text content", false);
  const u = parsed.data.usage;
  const token_usage = u ? usage(u.prompt_tokens, u.completion_tokens) : usage(0, 0);
  if (u?.total_tokens !== undefined) token_usage.total_tokens = u.total_tokens;
  return {
    content: parsed.data.choices[0]!.message.content,
    model: parsed.data.model ?? config.model,
    token_usage,
    cost: costOf(config, token_usage.prompt_tokens, token_usage.completion_tokens),
  };
}

export function openAiReply(config: OpenAiConfig, input: ReplyInput): Promise<ReplyOutput> {
  const messages: ChatMessage[] = [
    ...(config.system ? [{ role: "system" as const, content: config.system }] : []),
    ...input.history.map((m) => ({ role: m.role, content: m.content })),
    { role: "user", content: input.message + describeAttachments(input.attachments) },
  ];
  return chat(config, messages, { signal: input.signal, onDelta: input.onDelta, secrets: input.secrets });
}

/** The step's own system prompt, when given, replaces the runtime's. */
export function openAiComplete(
  config: OpenAiConfig,
  prompt: string,
  opts: { signal?: AbortSignal; system?: string; secrets?: SecretLookup },
): Promise<ReplyOutput> {
  const system = opts.system ?? config.system;
  const messages: ChatMessage[] = [
    ...(system ? [{ role: "system" as const, content: system }] : []),
    { role: "user", content: prompt },
  ];
  return chat(config, messages, { signal: opts.signal, secrets: opts.secrets });
}
