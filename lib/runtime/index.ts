// The agent runtimes ("upstreams"): one entry point per use. Conversations call generateReply,
// workflow `llm` steps call complete, workflow `http` steps call postJson. Every failure is a
// RuntimeError; callers map it with toApiError and decide on retries with `retryable`.
import { measureUpstream } from "../metrics";
import { echoReply } from "./echo";
import { httpReply, postJson as postJsonUnmeasured } from "./http";
import { openAiComplete, openAiReply } from "./openai";
import type { SecretLookup } from "./credentials";
import { RuntimeConfig } from "./schema";
import { RuntimeError, type ReplyInput, type ReplyOutput } from "./types";

export { RuntimeConfig } from "./schema";
export type { SecretLookup } from "./credentials";
export {
  GENERIC_RUNTIME_ERROR,
  RuntimeError,
  isRuntimeError,
  toApiError,
  type ReplyInput,
  type ReplyOutput,
} from "./types";

/** Stored configs may predate a default or come straight from JSON: normalise before use. */
function normalise(config: RuntimeConfig): RuntimeConfig {
  const parsed = RuntimeConfig.safeParse(config);
  if (!parsed.success) throw new RuntimeError("error", `invalid runtime config: ${parsed.error.message}`, false);
  return parsed.data;
}

const filenamesOf = (attachments: unknown[]): string[] =>
  attachments.flatMap((a) =>
    a && typeof a === "object" && typeof (a as { filename?: unknown }).filename === "string"
      ? [(a as { filename: string }).filename]
      : [],
  );

/** A failure's label in the upstream metrics: the RuntimeError kind (timeout, error). */
const failureKind = (err: unknown): string => (err instanceof RuntimeError ? err.kind : "error");

/** Every call below is timed and its failures counted by runtime type (lib/metrics). */
const measured = <T>(runtime: string, call: () => Promise<T>) => measureUpstream(runtime, call, failureKind);

export async function generateReply(config: RuntimeConfig, input: ReplyInput): Promise<ReplyOutput> {
  const c = normalise(config);
  const output = await measured(c.type, () => generateWith(c, input));
  // Runtimes that do not stream hand a streaming caller their whole reply as one piece.
  if (input.onDelta && c.type !== "openai" && output.content) input.onDelta(output.content);
  return output;
}

async function generateWith(c: RuntimeConfig, input: ReplyInput): Promise<ReplyOutput> {
  switch (c.type) {
    case "echo":
      return echoReply(c, {
        message: input.message,
        history: input.history,
        filenames: filenamesOf(input.attachments),
        signal: input.signal,
      });
    case "openai":
      return openAiReply(c, input);
    case "http":
      return httpReply(c, input);
  }
}

/** For workflow `llm` steps: one prompt -> completion using an echo or openai runtime config. */
export async function complete(
  config: RuntimeConfig,
  prompt: string,
  opts: { signal?: AbortSignal; system?: string; secrets?: SecretLookup } = {},
): Promise<ReplyOutput> {
  const c = normalise(config);
  return measured(c.type, () => completeWith(c, prompt, opts));
}

async function completeWith(
  c: RuntimeConfig,
  prompt: string,
  opts: { signal?: AbortSignal; system?: string; secrets?: SecretLookup },
): Promise<ReplyOutput> {
  switch (c.type) {
    case "echo":
      return echoReply(c, { message: prompt, signal: opts.signal });
    case "openai":
      return openAiComplete(c, prompt, opts);
    case "http":
      throw new RuntimeError("error", "an http runtime cannot complete a prompt; use an echo or openai runtime", false);
  }
}

/** For workflow `http` steps: POST JSON to a URL (lib/runtime/http.ts), timed as the `http` runtime. */
export function postJson(...args: Parameters<typeof postJsonUnmeasured>): Promise<unknown> {
  return measured("http", () => postJsonUnmeasured(...args));
}
