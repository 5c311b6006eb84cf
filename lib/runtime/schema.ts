// Runtime settings of an agent (DESIGN.md "Agent runtimes").
import { z } from "zod";

const timeout = z.number().int().min(100).max(600_000);
/// At most this many replies of the agent at a time (per server process), to protect its upstream.
const maxConcurrency = { max_concurrency: z.number().int().min(1).max(10_000).optional() };

export const EchoRuntime = z.strictObject({
  type: z.literal("echo"),
  delay_ms: z.number().int().min(0).max(600_000).default(0),
  /// Test hook: fail every reply (upstream_error) or hang (upstream_timeout).
  fail: z.enum(["error", "timeout"]).optional(),
  /// Optional, unlike the other runtimes: a delay_ms above it fails as upstream_timeout, and it
  /// bounds the fail "timeout" hang (1 s when unset). Absent by default so stored configs stay as written.
  timeout_ms: timeout.optional(),
  ...maxConcurrency,
});

export const OpenAiRuntime = z.strictObject({
  type: z.literal("openai"),
  base_url: z.string().url(),
  model: z.string().min(1),
  api_key_env: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name")
    .optional(),
  system: z.string().optional(),
  timeout_ms: timeout.default(20_000),
  prices: z
    .strictObject({ prompt_per_million: z.number().min(0), completion_per_million: z.number().min(0) })
    .optional(),
  ...maxConcurrency,
});

export const HttpRuntime = z.strictObject({
  type: z.literal("http"),
  url: z
    .string()
    .url()
    .refine((u) => /^https?:/.test(u), "must be an http(s) URL"),
  timeout_ms: timeout.default(20_000),
  headers: z.record(z.string(), z.string()).optional(),
  ...maxConcurrency,
});

export const RuntimeConfig = z.discriminatedUnion("type", [EchoRuntime, OpenAiRuntime, HttpRuntime]);
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
