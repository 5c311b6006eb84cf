// Shared types of the agent runtimes (docs/api.md, Agents). Kept apart from index.ts so
// that the runtime modules can import them without a cycle.
import { ApiError } from "../errors";
import type { UpstreamRefusedError } from "../net/upstream-guard";

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ReplyInput {
  agentId: string;
  sessionId: string;
  messageId: string;
  /** The user's message. */
  message: string;
  /** Resolved file objects {file_id, filename, content_type, size_bytes, url, url_expires_at}. */
  attachments: unknown[];
  metadata: Record<string, unknown>;
  /** Earlier completed messages of the session, oldest first. */
  history: { role: "user" | "assistant"; content: string }[];
  signal?: AbortSignal;
  /** When set, the reply is streamed: each piece of text as it arrives (token deltas from an
   *  `openai` upstream, the whole reply at once from the others). Their concatenation is `content`. */
  onDelta?: (content: string) => void;
  /** The agent's organization secrets, for the credentials its runtime names (./credentials.ts);
   *  undefined for a name the organization has not set. */
  secrets?: (name: string) => Promise<string | undefined>;
}

export interface ReplyOutput {
  content: string;
  model: string | null;
  token_usage: TokenUsage;
  cost: number;
}

/** kind "timeout" maps to 502 upstream_timeout, "error" to 502 upstream_error. `retryable` says
 *  whether a retry may help (timeouts, 5xx, 429, connection refused: yes; 4xx other than 408/429,
 *  bad JSON shape: no). `message` is internal (logs), never shown to API callers; `publicMessage`,
 *  when set, is our own wording that is safe to show them (e.g. a refused upstream address). */
export class RuntimeError extends Error {
  constructor(
    readonly kind: "timeout" | "error",
    message: string,
    readonly retryable: boolean,
    readonly publicMessage?: string,
  ) {
    super(message);
    this.name = "RuntimeError";
  }
}

export const isRuntimeError = (e: unknown): e is RuntimeError => e instanceof RuntimeError;

/** What a caller is told of a runtime failure that has no wording of our own. */
export const GENERIC_RUNTIME_ERROR = "The agent runtime returned an error";

/** The caller-safe ApiError for a runtime failure: the upstream's own words stay in the logs. */
export function toApiError(e: RuntimeError): ApiError {
  return e.kind === "timeout"
    ? new ApiError("upstream_timeout", "The agent runtime timed out")
    : new ApiError("upstream_error", e.publicMessage ?? GENERIC_RUNTIME_ERROR);
}

/** The runtime error for a connection the upstream guard refused: final, and says which setting allows it. */
export function refusedError(r: UpstreamRefusedError): RuntimeError {
  return new RuntimeError("error", r.message, false, r.publicMessage);
}

/** Retry policy by upstream HTTP status: server trouble and throttling may pass, client errors will not. */
export const retryableStatus = (status: number): boolean => status >= 500 || status === 408 || status === 429;

/** Deterministic token estimate used where no upstream counts exist (echo): whitespace-separated words. */
export const countWords = (text: string): number => {
  const t = text.trim();
  return t ? t.split(/\s+/).length : 0;
};

export const usage = (prompt: number, completion: number): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

/** A caller abort counts as a timeout: the caller's signal is a deadline (job timeout, shutdown),
 *  and a retry after it may well succeed. */
export const abortedError = (): RuntimeError => new RuntimeError("timeout", "aborted by caller", true);

/** Resolves after `ms`, or rejects with abortedError() as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** One signal for a whole upstream call (connect, headers and body) that fires at the deadline or
 *  when the caller's signal aborts; `timedOut()` tells the two apart afterwards. */
export function deadline(timeoutMs: number, caller?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  caller?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}
