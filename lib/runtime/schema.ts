// Runtime settings of an agent (docs/api.md, Agents). Credentials are never written here:
// an openai runtime names an organization secret (`api_key_secret`) or an environment variable the
// operator allowed (`api_key_env`, MODEL_KEY_ENV_ALLOWLIST); header values name secrets inline
// (`{{secrets.<name>}}`). lib/secrets/credentials.ts checks the names when an agent is saved.
import { z } from "zod";
import { refProblem, SECRET_NAME_RE, SECRET_NAME_RULE } from "../secrets/refs";

const timeout = z.number().int().min(100).max(600_000);
/// At most this many replies of the agent at a time (per server process), to protect its upstream.
const maxConcurrency = { max_concurrency: z.number().int().min(1).max(10_000).optional() };

/** Header names as HTTP allows them (RFC 9110 token). */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** Visible ASCII, space, tab and Latin-1: never CR, LF or NUL, which would split or end a header. */
const HEADER_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers that frame the request or name the connection: the client sets them, never an agent. */
const FRAMING_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
  "proxy-authorization",
]);
export const MAX_HEADERS = 50;
export const MAX_HEADER_VALUE = 8192;

/** Extra headers of an upstream call (http runtime, openai runtime, http steps). */
export const UpstreamHeaders = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) ctx.addIssue({ code: "custom", message: `at most ${MAX_HEADERS} headers` });
  for (const name of names) {
    const value = headers[name]!;
    const problem = !HEADER_NAME_RE.test(name)
      ? "must be a header name (letters, digits and !#$%&'*+.^_`|~-)"
      : FRAMING_HEADERS.has(name.toLowerCase())
        ? "is set by the service itself and cannot be configured"
        : value.length > MAX_HEADER_VALUE
          ? `must be at most ${MAX_HEADER_VALUE} characters`
          : !HEADER_VALUE_RE.test(value)
            ? "must not contain line breaks or other control characters"
            : refProblem(value);
    if (problem) ctx.addIssue({ code: "custom", path: [name], message: problem });
  }
});

/** Where an upstream call goes: http(s), and no credentials in the URL (fetch refuses them, and they
 *  belong in an organization secret named by a header). */
export const UpstreamUrl = z
  .string()
  .url()
  .refine((u) => /^https?:/i.test(u), "must be an http(s) URL")
  .refine(
    (u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password),
    "must not carry credentials (user:password@): name an organization secret in a header instead",
  );

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

export const OpenAiRuntime = z
  .strictObject({
    type: z.literal("openai"),
    base_url: UpstreamUrl,
    model: z.string().min(1),
    /// An organization secret holding the API key (docs/api.md "Organization secrets").
    api_key_secret: z.string().regex(SECRET_NAME_RE, SECRET_NAME_RULE).optional(),
    /// A server environment variable holding the API key: only those the operator allows
    /// (MODEL_KEY_ENV_ALLOWLIST), checked when the agent is saved and at every call.
    api_key_env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name")
      .optional(),
    headers: UpstreamHeaders.optional(),
    system: z.string().optional(),
    timeout_ms: timeout.default(20_000),
    prices: z
      .strictObject({ prompt_per_million: z.number().min(0), completion_per_million: z.number().min(0) })
      .optional(),
    ...maxConcurrency,
  })
  .refine((r) => !(r.api_key_secret && r.api_key_env), {
    path: ["api_key_secret"],
    message: "name the key by api_key_secret or by api_key_env, not both",
  });

export const HttpRuntime = z.strictObject({
  type: z.literal("http"),
  url: UpstreamUrl,
  timeout_ms: timeout.default(20_000),
  headers: UpstreamHeaders.optional(),
  ...maxConcurrency,
});

export const RuntimeConfig = z.discriminatedUnion("type", [EchoRuntime, OpenAiRuntime, HttpRuntime]);
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
