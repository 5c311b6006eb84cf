// Environment, read and validated in one place. Safe defaults give the embedded mode.
import { isIPv6 } from "node:net";
import { z } from "zod";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

/** One UPSTREAM_ALLOWLIST entry: `host`, `host:port`, `[ipv6]` or `[ipv6]:port`; undefined when malformed. */
export function splitUpstreamHost(entry: string): { host: string; port?: string } | undefined {
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::(\d{1,5}))?$/i.exec(entry.trim());
  if (!m || (m[1] !== undefined && !isIPv6(m[1])) || Number(m[3] ?? 0) > 65535) return undefined;
  return { host: (m[1] ?? m[2]!).toLowerCase(), ...(m[3] ? { port: String(Number(m[3])) } : {}) };
}

/** One MODEL_KEY_ENV_ALLOWLIST entry: `NAME` or `NAME@host`; undefined when malformed. */
export function parseKeyEnvEntry(entry: string): { name: string; host?: string } | undefined {
  const m = /^([A-Z_][A-Z0-9_]*)(?:@([a-z0-9.-]+|\[[0-9a-f:.]+\]))?$/i.exec(entry.trim());
  if (!m || m[1] !== m[1]!.toUpperCase()) return undefined;
  return { name: m[1]!, ...(m[2] ? { host: m[2].toLowerCase() } : {}) };
}

/** The environment the service reads; every variable's description is the configuration reference's
 *  (`npm run gen:config` writes it into docs/deploy.md). */
export const EnvSchema = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"])
    .default("development")
    .describe("Set by Next.js (`production` under `npm start`); `test` skips the first-start seed."),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe("Port the server listens on."),
  HOST: z.string().default("0.0.0.0").describe("Address the server listens on (`0.0.0.0`: every interface)."),
  DATA_DIR: z
    .string()
    .default("./data")
    .describe("Embedded database and file storage live here when DATABASE_URL is unset."),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "`postgres://...`: use PostgreSQL instead of the embedded database (required for several processes or machines).",
    ),
  PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .describe(
      "Public base URL used in signed links, the first-start instructions, the console's sign-in redirects and its same-origin check.",
    ),
  TRUST_PROXY: bool
    .default(false)
    .describe(
      "Behind a reverse proxy that sets them: take the links' (and the console's) host and scheme from X-Forwarded-Host and X-Forwarded-Proto, and the sign-in lockout's client address from the last X-Forwarded-For entry. Otherwise clients could set them, so only `Host` and the connection's address are used.",
    ),
  SIGNING_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe("Secret for signed download URLs; generated and kept in DATA_DIR when unset."),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("pino level; logs are JSON lines on stdout."),
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "When set (16+ characters), GET /api/metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, the metrics are open (keep the path private at the proxy then).",
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "OpenTelemetry traces are exported over OTLP/HTTP to this base URL (the SDK appends /v1/traces) when it is set; unset, no tracing code is loaded. The SDK reads its other OTEL_* variables itself (docs/deploy.md, Tracing).",
    ),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .preprocess((v) => (v === "" ? undefined : v), z.enum(["http/protobuf", "http/json"]).default("http/protobuf"))
    .describe("Encoding of the exported traces (gRPC is not supported)."),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(25_000)
    .describe(
      "Bound of a graceful shutdown (SIGTERM, SIGINT): requests in flight, replies being produced and running jobs get this long to finish before the process exits.",
    ),
  RUN_WORKER: bool
    .default(true)
    .describe(
      "Run the job worker inside the server process (the embedded default). Set false when separate `npm run worker` processes do the work.",
    ),
  WORKER_PORT: z
    .preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).max(65535).optional())
    .describe(
      "Port on which a standalone `npm run worker` answers GET /metrics, /health and /ready (on HOST); unset, the worker listens on no port.",
    ),
  FAST_ROUTES: bool
    .default(true)
    .describe(
      "Serve the hot public routes (GET message, GET run, the trigger) in front of Next's router, with the same answers; `false` leaves every route to Next (as does tracing: OTEL_EXPORTER_OTLP_ENDPOINT).",
    ),
  WEB_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "Server processes on one port (PostgreSQL only; default: one per core). The embedded database allows one process.",
    ),
  DB_POOL_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe("Connections of the PostgreSQL pool of each process."),
  QUEUE_HEARTBEAT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .transform((n) => Math.max(10, n))
    .describe(
      "Seconds without a heartbeat after which the job of a dead worker is retried (at least 10: lower values are raised to 10).",
    ),
  QUEUE_SUPERVISE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("How often the queue looks for expired jobs (those of dead workers)."),
  QUEUE_RETRY_LIMIT: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .default(5)
    .describe(
      "Attempts of a queue job after its first (a workflow run's engine pass that failed or whose process died). The last one ends the run `failed` rather than leaving it to the queue.",
    ),
  EXPRESSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(1_000)
    .describe(
      "Time limit of one evaluation of a workflow expression (a step's expression, `when` or body, an llm prompt's placeholder): over it the item fails with `expression_timeout`. Expressions run in separate evaluator processes, never on the server's event loop.",
    ),
  EXPRESSION_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(32)
    .max(16_384)
    .default(128)
    .describe(
      "Heap limit of each expression evaluator process, in MB: an expression that needs more fails its item with `expression_too_large`.",
    ),
  EXPRESSION_PROCESSES: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe(
      "Expression evaluator processes per server or worker process, at most (started when needed, ended after 30 s idle). With 4, as many as the runs a process executes at once, no run waits for another's expressions.",
    ),
  RUN_WATCH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(150)
    .describe("How often a run's engine checks its run for pause, cancel or a newer engine."),
  TEST_CLOCK_FILE: z
    .string()
    .optional()
    .describe(
      "Tests only, never in service: a file holding a number of milliseconds by which the time-bound rules' clock (key expiry and roll grace, the key sweep) runs ahead, read on each use; a browser test crosses a grace period by writing it instead of sleeping. A warning is logged at start-up while it is set.",
    ),
  KEY_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30_000)
    .default(2_000)
    .describe("Verified Access Keys are cached this long; revocation reaches every instance within it."),
  RATE_LIMIT_PER_MINUTE: z
    .preprocess(
      (v) => (v === "" ? undefined : v), // set but empty is the default, not 0 (which disables it)
      z.coerce.number().int().min(0).max(1_000_000).default(600),
    )
    .describe(
      "Requests a minute an Access Key may make on the public API, for keys minted without their own `rate_limit_per_minute`; 0 disables the default (keys with their own limit keep it). Over it: 429 rate_limited with Retry-After. Counted across processes on PostgreSQL.",
    ),
  ALLOW_PRIVATE_UPSTREAMS: bool
    .default(false)
    .describe(
      "Outgoing calls named by an agent's configuration (http runtime, openai base_url, workflow http and llm steps) may reach loopback, private (10/8, 172.16/12, 192.168/16), shared (100.64/10) and unique-local (fc00::/7) addresses: for a model server on the same machine or network. Link-local and cloud metadata addresses stay refused whatever this says (lib/net/upstream-guard.ts).",
    ),
  UPSTREAM_ALLOWLIST: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.every((h) => splitUpstreamHost(h)), "entries must be host, host:port or [ipv6]:port")
    .describe(
      "Comma-separated hosts whose loopback or private addresses are allowed when ALLOW_PRIVATE_UPSTREAMS is false: a host name or IP literal as written in the URL, optionally with `:port` (that port only); IPv6 in brackets (`[fd12::1]:8000`). No wildcards.",
    ),
  MODEL_KEY_ENV_ALLOWLIST: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .refine(
      (entries) => entries.every((e) => parseKeyEnvEntry(e)),
      "entries must be NAME or NAME@host (an environment variable name in capitals, optionally the only host it may be sent to)",
    )
    .describe(
      "Comma-separated environment variables that agents' openai runtimes may name as `api_key_env` (empty: none; agents use organization secrets, `api_key_secret`). `NAME@host` sends that key only to a `base_url` on that host. Every org admin can make the service send an allowed key to a base_url of their choosing: allow only keys meant for every organization, bound to their host. The service's own settings can never be allowed.",
    ),
  CALLBACK_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(8)
    .describe(
      "Attempts of a completion callback delivery (the first included) before it is marked failed; a redelivery gets as many again.",
    ),
  CALLBACK_RETRY_BASE_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400_000)
    .default(10_000)
    .describe(
      "First retry delay of a completion callback; each further retry doubles it (with jitter), capped at 6 hours.",
    ),
  CALLBACK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe("Time limit of one completion callback request (headers and body of the answer)."),
  REPLY_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(256)
    .describe(
      "Replies produced at once by the process that accepted the trigger, at most this many at a time (replies wait on their upstream: the cap is about memory and upstream load, not CPU).",
    ),
  REPLY_BACKLOG: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(2_000)
    .describe("Replies waiting for a free slot beyond which new triggers are refused with 503 and Retry-After."),
  ORG_REPLY_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(64)
    .describe(
      "Replies of one organization that may always run at once per process while a slot is free (its share). Beyond it an organization borrows idle slots while REPLY_RESERVED_SLOTS stay free, so one organization alone uses nearly all of REPLY_CONCURRENCY; when several wait, each free slot goes to the one holding fewest. Its further replies wait in its own line.",
    ),
  EVALUATIONS_PER_ORG: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(3)
    .describe(
      "Evaluations one organization may have queued or running at once; another is refused with 429 too_many_evaluations and Retry-After.",
    ),
  EVALUATION_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe(
      "Cases of one evaluation replayed at once by a worker. Their model calls also take the organization's reply slots (ORG_REPLY_CONCURRENCY), so an evaluation never crowds out another organization's live replies.",
    ),
  REPLY_RESERVED_SLOTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .optional()
    .describe(
      "Reply slots an organization above its ORG_REPLY_CONCURRENCY share may not borrow: kept free for organizations below theirs, so that a newcomer's reply starts at once even while another organization's borrowed replies hang (a reply in flight cannot be taken back). Default: an eighth of REPLY_CONCURRENCY, at least 1.",
    ),
  ORG_REPLY_BACKLOG: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(500)
    .describe(
      "Replies of one organization waiting for a slot (per process) beyond which that organization's new triggers are refused with 503 and Retry-After; the others are not affected.",
    ),
  ORG_RUN_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(2)
    .describe(
      "Workflow engine passes one organization keeps running while runs of other organizations wait for a worker slot: its other passes pause at their next item boundary and continue after the waiting runs (a run's state does not change). With no one waiting, an organization may use every slot.",
    ),
  REPLY_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(2)
    .max(3_600)
    .default(30)
    .describe(
      "How long a reply's producer holds it without renewing; a reply whose process died is taken over once this has passed.",
    ),
  TRIGGER_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(25_000)
    .describe("Bounded wait of a synchronous conversational trigger."),
  UPLOAD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60 * 1000)
    .describe("Uploads may last up to an hour; other requests are cut much sooner."),
  REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5 * 60 * 1000)
    .describe(
      "Whole-request time limit of everything but uploads (408 request_timeout, then the connection is closed).",
    ),
  HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(20_000)
    .describe(
      "A client must have sent all of a request's headers within this (slow-header clients are cut with 408; checked every quarter of it).",
    ),
  MAX_HEADER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024)
    .default(16 * 1024)
    .describe("Largest request line and headers, in bytes (431 above it; Node's default is 16 KiB)."),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(65_000)
    .describe(
      "An idle keep-alive connection is closed after this long: longer than clients and proxies keep their idle connections, so that they close first.",
    ),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 ** 3)
    .describe("Largest upload accepted, multipart or resumable (tus answers 413 above it; Tus-Max-Size)."),
  RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(36_500)
    .default(0)
    .describe(
      "Days that an organization's sessions (with their messages), finished runs (with their items and output files), files, callback deliveries and audit rows are kept; 0 keeps them forever. An admin may set another figure for their organization.",
    ),
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .positive()
    .default(24)
    .describe("Unfinished resumable uploads are deleted (bytes and state) this long after they began."),
  ALERT_EVALUATION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60_000)
    .describe("How often the worker evaluates the alert rules (docs/api.md, Alerts); one process evaluates at a time."),
  KEY_ROLL_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(30_000)
    .describe(
      "How often the worker writes down the revocation of rolled Access Keys past their grace (verification refuses them at the end of the grace already).",
    ),
  UPLOAD_CLEANUP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(15 * 60 * 1000)
    .describe("How often the worker deletes expired unfinished uploads."),
  STORAGE_URL: z
    .string()
    .regex(
      /^(file:.*|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()/-]*)?)$/,
      "must be `file:` or `s3://bucket` or `s3://bucket/prefix`",
    )
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      'Where uploaded and output files are kept: unset or `file:` for DATA_DIR/files on the local disk; `s3://bucket/optional/prefix` for an S3-compatible bucket (endpoint and credentials from the AWS_* variables; docs/deploy.md "Storage").',
    ),
  AWS_ENDPOINT_URL_S3: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe("S3 storage: endpoint of an S3-compatible service (MinIO, R2, ...); unset for AWS S3 itself."),
  AWS_ENDPOINT_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe("S3 storage: endpoint used when AWS_ENDPOINT_URL_S3 is unset."),
  AWS_REGION: z.string().min(1).default("us-east-1").describe("S3 storage: region of the bucket."),
  AWS_ACCESS_KEY_ID: z
    .string()
    .min(1)
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "S3 storage: access key id (with AWS_SECRET_ACCESS_KEY); unset to use the SDK's other sources (instance or task role, profile).",
    ),
  AWS_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe("S3 storage: secret access key (with AWS_ACCESS_KEY_ID); never logged."),
  S3_FORCE_PATH_STYLE: bool
    .default(false)
    .describe(
      "S3 storage: address the bucket as `endpoint/bucket/key` (MinIO, s3rver) instead of `bucket.endpoint/key`.",
    ),
  STORAGE_FAULT_AFTER_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "Test hook only (never set in production): every storage write fails after this many bytes, as a disk that fills up mid-stream would, to exercise `500 upload_failed`.",
    ),
  AUTH_SECRET: z
    .string()
    .min(32)
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "Key of console sessions (32+ characters). Generated into DATA_DIR when unset on the embedded database; required on PostgreSQL (every instance must share it).",
    ),
  OIDC_ISSUER: z
    .string()
    .url()
    .optional()
    .describe('Console single sign-on: all three set enable "Sign in with SSO" (OpenID Connect).'),
  OIDC_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .describe("Client id of the OpenID Connect application (with OIDC_ISSUER and OIDC_CLIENT_SECRET)."),
  OIDC_CLIENT_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe("Client secret of the OpenID Connect application (with OIDC_ISSUER and OIDC_CLIENT_ID)."),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, "must be an smtp:// or smtps:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined))
    .describe(
      "Outgoing email (invitation links): `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465` (TLS from the start); percent-encode special characters of the user and password. Needs PUBLIC_URL. Unset, no email is sent: the admin passes the link on. Never logged.",
    ),
  SMTP_FROM: z
    .string()
    .trim()
    .min(3)
    .max(320)
    .regex(/^[^\r\n]*$/, "must be one line")
    .default("Agent Webhook Service <no-reply@localhost>")
    .describe("Sender of outgoing email (`Name <address>` or an address your SMTP server accepts)."),
  ADMIN_EMAIL: z
    .string()
    .email()
    .default("admin@example.com")
    .describe("First start: email address (sign-in name) of the first admin."),
  ADMIN_PASSWORD: z
    .string()
    .min(8)
    .optional()
    .describe("First start: password of the first admin (8+ characters; generated and printed once when unset)."),
  SEED_DEMO: bool.default(true).describe("First start: create the demo agents (echo runtime)."),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the service reads (the README's configuration table lists exactly these). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as (keyof Env)[];

let cached: Env | undefined;

export function env(): Env {
  return (cached ??= parseEnv(process.env));
}

/** `source` validated by the schema, and by the rules that span several variables. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const d = parsed.data;
  const serviceSetting = d.MODEL_KEY_ENV_ALLOWLIST.map((e) => parseKeyEnvEntry(e)!.name).find((n) =>
    SERVICE_SECRET_NAMES.has(n),
  );
  if (serviceSetting) {
    throw new Error(
      `Invalid environment:\n  MODEL_KEY_ENV_ALLOWLIST: ${serviceSetting} is a setting of the service itself and can never be sent to an agent's upstream`,
    );
  }
  if (!d.AWS_ACCESS_KEY_ID !== !d.AWS_SECRET_ACCESS_KEY) {
    throw new Error("Invalid environment:\n  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither");
  }
  if (d.SMTP_URL && !d.PUBLIC_URL) {
    // An emailed link built from a request's Host would point wherever the inviting admin's
    // request said (a forged Host passes the same-origin check when Origin is forged with it).
    throw new Error("Invalid environment:\n  SMTP_URL: needs PUBLIC_URL, the address links in emails point to");
  }
  return d;
}

/** Variables that are the service's own: never allowed as an agent's `api_key_env`, whatever the allowlist says. */
const SERVICE_SECRET_NAMES = new Set<string>([
  ...Object.keys(EnvSchema.shape),
  // Read by libraries rather than by lib/env.ts.
  "AUTH_URL",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "AWS_SESSION_TOKEN",
  "PGPASSWORD",
]);

/**
 * The value of an environment variable an agent names as its model API key (`api_key_env`), when
 * the operator allows it for `host` (MODEL_KEY_ENV_ALLOWLIST); `allowed: false` otherwise. The name
 * is configuration, so it cannot be part of the schema above.
 */
export function allowedKeyEnv(name: string, host: string): { allowed: true; value?: string } | { allowed: false } {
  const entries = env().MODEL_KEY_ENV_ALLOWLIST.map((e) => parseKeyEnvEntry(e)!);
  const h = host.toLowerCase();
  const ok =
    !SERVICE_SECRET_NAMES.has(name) && entries.some((e) => e.name === name && (e.host === undefined || e.host === h));
  return ok ? { allowed: true, value: process.env[name] || undefined } : { allowed: false };
}

/** This server's own address as it listens (a wildcard HOST, every interface, becomes localhost). */
export function listenBaseUrl(): string {
  const { HOST, PORT } = env();
  const host = ["", "0.0.0.0", "::", "[::]"].includes(HOST) ? "localhost" : isIPv6(HOST) ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}`;
}

/** Base of links made with no request at hand (jobs): PUBLIC_URL, else this server's own address. */
export function publicBaseUrl(): string {
  const configured = env().PUBLIC_URL;
  return configured ? configured.replace(/\/+$/, "") : listenBaseUrl();
}

/** For tests that change process.env between cases. */
export function resetEnvCache() {
  cached = undefined;
}
