// The OpenAPI 3.1 document of the public and management APIs (and tus), served at
// /api/openapi.json, linted by `npm run lint:openapi`, rendered at /docs/api and compiled into the
// typed client (lib/client). Request and response shapes come from the zod schemas the routes
// validate with (lib/*/schemas.ts) and the error codes from lib/errors.ts: nothing is copied by hand.
// The console's own backend (/api/console) and Auth.js (/api/auth) are left out: they are private.
import { createHash } from "node:crypto";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors";
import { MAX_WAIT_SECONDS } from "../http/prefer";
import {
  Components,
  errorExamples,
  errorGroups,
  errorResponse,
  header,
  jsonContent,
  pathParameters,
  queryParameters,
  type ErrorDocs,
  type Json,
  type Operation,
} from "./builder";
import { AlertPayload } from "../alerts/schemas";
import { CALLBACK_EVENTS } from "../callbacks/schemas";
import { MessageRecord } from "../conversations/schemas";
import { RunRecord } from "../runs/schemas";
import { openApiPath, type RouteContract } from "../http/contract";
import { answerResponses, schemaRef } from "./answers";
import { namedParts } from "./parts";
import { tusHeaders } from "./tus";
import { processOnce } from "../process-state";

/** When each code is answered: the table of the document (docs/api.md has the same). */
export const ERROR_DOCS: ErrorDocs = {
  invalid_json: "the body is not valid JSON, or is empty.",
  invalid_request: "the body, path, query or a header fails validation; `details.fields` lists `{field, message}`.",
  invalid_status: "list runs: the `status` filter is not a run state.",
  invalid_resolution: "approvals: the resolution is not `approved`, `rejected` or `modified`.",
  runtime_not_applicable: "a session route on a workflow agent, or a run route on a conversational agent.",
  missing_file: "upload: no part named `file`.",
  empty_file: "upload: the file is empty.",
  file_not_found:
    "a file reference names an unknown file, or one of another agent or organization; `details: {file_id, field}`.",
  invalid_callback_url:
    "`callback_url` of a trigger or an agent is not an http(s) URL of at most 2048 characters, or carries credentials; `details.fields`.",
  invalid_agent:
    "an agent's configuration names an organization secret that does not exist, or an environment variable the operator does not allow (MODEL_KEY_ENV_ALLOWLIST); `details.fields` lists `{field, message}`.",
  search_query_too_long: "console search: the text is longer than 200 characters.",
  empty_source: "evaluations: the source's filters or saved view select no session or run with anything to replay.",
  invalid_check:
    "evaluations: a check does not compile; `details.fields` names it (`checks[i].expression` or `.schema`).",
  evaluation_not_found: "evaluations: no evaluation with this id for the agent in the organization.",
  evaluation_case_not_found: "evaluations: no case with this id in the evaluation.",
  evaluation_finished: "evaluations: cancel asked for an evaluation that has already finished; `details: {status}`.",
  too_many_evaluations:
    "evaluations: the organization already has the most evaluations queued or running (`EVALUATIONS_PER_ORG`); retry after `Retry-After` seconds.",
  invalid_search_field:
    "console search: the field of `field:value` is not letters, digits, `_`, `-` and dots between them, or is over 64 characters.",
  unauthorized: "missing, malformed, unknown or revoked credentials.",
  invalid_credentials: "console sign-in: wrong email or password.",
  access_key_expired: "the Access Key is past its `expires_at`: mint a new one, or have an admin extend it.",
  forbidden: "the Access Key lacks `agents:invoke`, or the user is not an admin.",
  invitation_email_mismatch: "console: accepting an invitation while signed in with another email.",
  cross_site_request: "console: a state change from another origin.",
  invalid_signature: "signed download URL altered.",
  url_expired: "signed download URL older than 15 minutes.",
  not_found: "no such API route, or the file of a download link no longer exists.",
  organization_not_found: "the organization does not exist, or the token's user is not a member.",
  agent_not_found: "the agent does not exist or belongs to another organization.",
  access_key_not_found: "the Access Key does not exist in this organization.",
  session_not_found: "the session does not exist, or belongs to another agent or organization.",
  message_not_found: "the message does not exist within the session.",
  run_not_found: "the run does not exist, or belongs to another agent.",
  approval_not_found: "no open approval with this `exception_id` in the run.",
  member_not_found: "console: no such member.",
  upload_not_found: "the resumable upload does not exist, belongs to another agent, or was deleted.",
  delivery_not_found: "console: no such callback delivery in this organization.",
  secret_not_found: "no organization secret with this name.",
  invitation_not_found:
    "console: no invitation with this token (a wrong or mistyped link), or no pending invitation with this id in the organization.",
  bulk_action_not_found: "console: no bulk action with this id in the organization.",
  export_not_found: "exports: no export with this id in the organization.",
  export_not_ready: "exports: a download asked for before the export succeeded; `details: {status}`.",
  export_expired: "exports: the export's file was deleted after its expiry (7 days).",
  view_not_found: "console: no saved view with this id that you can see.",
  alert_rule_not_found: "alerts: no alert rule with this id in the organization.",
  agent_version_not_found:
    "versions: the agent has no version of this number (a version of another agent is missing too).",
  invalid_agent_version:
    "a trigger's `agent_version` is not a version of this agent that is or was published; `details.fields` names `agent_version`.",
  draft_conflict:
    "versions: the draft write or publish names a version that is no longer the agent's head (someone edited, published or " +
    "rolled back since): read the agent again; `details: {base_version, head_version, draft_version, published_version}`.",
  nothing_to_publish: "versions: no draft, or a draft equal to the published version.",
  rollout_in_progress:
    "versions: a canary rollout is on; complete it or roll it back first; `details: {rollout_version, percent}`.",
  no_rollout: "versions: changing a rollout's share while none is in progress.",
  nothing_to_roll_back: "versions: no rollout is on and nothing served before the published version.",
  version_is_draft: "versions: restoring the draft itself.",
  method_not_allowed: "the route does not serve this method; `Allow` lists those it does.",
  conflict: "console: inviting or accepting for someone who already belongs to the organization.",
  invalid_state_transition:
    "a run control from a state that does not allow it; `details: {current_status, allowed_actions}`.",
  idempotency_conflict: "an `Idempotency-Key` reused with another body, or still in flight.",
  last_admin: "console: removing or demoting the last admin.",
  too_many_views: "a member already has 100 saved views of this list.",
  too_many_alert_rules: "alerts: the organization already holds 100 alert rules; `details: {limit}`.",
  agent_archived: "a trigger or upload for an archived agent; `details: {agent_id, archived_at}`.",
  secret_in_use: "deleting an organization secret that agents still name; `details.used_by` lists them and the fields.",
  upload_incomplete: "a resumable upload's file asked for before its last byte; `details: {offset, length}`.",
  account_exists:
    "console: an invitation accepted signed out with a password for an email that has an account: sign in to accept.",
  selection_changed:
    "console: a bulk action started with an `expected_count` that its selection no longer has; `details: {allowed, expected_count}`.",
  approval_claimed:
    "console: another member claimed this review item (15 minutes); decide it with `take_over: true`; `details: {claimed_by}`.",
  access_key_rolled: "the Access Key was already rolled: roll its successor instead.",
  access_key_revoked: "the Access Key is revoked: it cannot be rolled or changed.",
  access_key_expired_for_good:
    "the Access Key has expired: it cannot be rolled, nor given another expiry (mint a new key); `details: {expired_at}`.",
  invitation_expired:
    "console: the invitation link was already used, revoked, replaced by a newer one, or is older than 7 days.",
  request_timeout: "the request took longer than the server's limit, or its headers arrived too slowly.",
  payload_too_large: "a JSON body over 1 MiB, or a file over `UPLOAD_MAX_BYTES`; `details: {limit_bytes}`.",
  range_not_satisfiable: "download: the range is outside the file.",
  headers_too_large: "the request line and headers exceed `MAX_HEADER_BYTES`.",
  unsupported_media_type: "not `application/json` (JSON routes), or not `multipart/form-data` (upload).",
  search_too_broad:
    "console search: the search took longer than its time bound; narrow it (more words, an id, `field:value`).",
  rate_limited:
    "the Access Key made more requests this minute than its limit, or a client tried too many wrong invitation links or sign-ins; `Retry-After` says when to come back.",
  internal_error: "an unexpected error (logged with the request id).",
  upload_failed: "storage failed mid-upload; nothing was kept.",
  upstream_timeout:
    "the agent did not reply within the wait; the reply keeps being produced: poll the message in `details`.",
  upstream_error: "the agent runtime failed; the message ended `error`: retry with backoff.",
  service_unavailable: "the service is at capacity (`Retry-After`), or its database does not answer.",
};

const CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The envelope of every error answer (lib/http/respond.ts errorBody). */
export const ErrorEnvelope = z.strictObject({
  error: z.strictObject({
    code: z.enum(CODES),
    message: z.string().meta({ description: "Safe to show; may change: match on `code`." }),
    request_id: z
      .string()
      .regex(/^req_[0-9A-Za-z]+$/)
      .meta({ description: "Equal to the `X-Request-Id` header." }),
    doc_url: z
      .string()
      .regex(/^\/docs\/api#error-[a-z_]+$/)
      .meta({ description: "The code's row in the API reference's errors table, relative to the service's address." }),
    details: z.record(z.string(), z.unknown()).optional().meta({ description: "Depends on the code." }),
  }),
});

const errorTable = () =>
  [
    "| status | code | when |",
    "|---|---|---|",
    ...CODES.map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DOCS[code].replace(/\|/g, "\\|")} |`),
  ].join("\n");

const DESCRIPTION = `Trigger hosted AI agents over HTTP with an Access Key, upload large files for them, poll
replies and workflow runs, and control runs. The management API mints Access Keys and manages agents.

**Authentication.** The public API (\`/api/agents/...\`, \`/api/workflows/...\`) takes
\`Authorization: Bearer ak_...\`, an Access Key with \`agents:invoke\`: its organization must own the agent in the path
(else \`404\`). The management API (\`/api/v1/organizations/{org_id}/...\`) takes a user token,
\`Authorization: Bearer ut_...\`; writes need the \`admin\` role. Missing or invalid credentials: \`401 unauthorized\`.

**Errors.** Every error answer is \`{"error": {"code", "message", "request_id", "doc_url", "details"?}}\` (\`doc_url\`: the
code's row of the table below, \`/docs/api#error-<code>\`) and every answer
carries \`X-Request-Id\`. Besides the codes each operation lists, any request may get \`405 method_not_allowed\`
(with \`Allow\`), \`408 request_timeout\`, \`431 headers_too_large\` or \`500 internal_error\`.

**Rate limits.** Each Access Key has a number of requests a minute on the public API; answers carry
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; over the limit, \`429 rate_limited\` with
\`Retry-After\`.

**Polling.** Replies and runs are polled. \`Prefer: wait=N\` (N up to ${MAX_WAIT_SECONDS}) on a GET of a message or
a run answers as soon as it changes.

**Completion callbacks.** A trigger's optional \`callback_url\` (or the agent's default) receives a signed \`POST\`
when a message completes or fails and when a run is completed, failed, needs review, paused or cancelled
(\`webhooks\` below): Standard Webhooks headers (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) signed
with the organization's secret (console, Webhooks), retried with backoff until a \`2xx\`.

The console's own backend (\`/api/console/...\`) is private and not described here.

## Error codes

${errorTable()}`;

const TAGS = [
  { name: "Triggers", description: "Send work to an agent." },
  { name: "Files", description: "Uploads for file references, and signed downloads." },
  {
    name: "Resumable uploads (tus)",
    description: "The same files over the tus 1.0 protocol: in chunks, resuming after a failure. Any tus client works.",
  },
  { name: "Conversations", description: "Sessions and messages of conversational agents." },
  { name: "Workflow runs", description: "Runs of workflow agents, their controls and approvals." },
  { name: "Access Keys", description: "Management API: the credentials of the public API." },
  { name: "Agents", description: "Management API: agents, their runtimes and workflow definitions." },
  {
    name: "Agent versions",
    description:
      "Management API: an agent's numbered versions; the draft, publish, canary rollouts and their guards, " +
      "rollback, restore and diff (docs/api.md, Versions).",
  },
  {
    name: "Evaluations",
    description:
      "Management API: a version replayed on a slice of the agent's real sessions or runs, beside what production " +
      "answered or another version, with checks, a budget and people's verdicts (docs/api.md, Evaluations).",
  },
  {
    name: "Organization secrets",
    description: "Management API: model and upstream credentials that agents name; write-only.",
  },
  { name: "Retention", description: "Management API: how long the organization's history is kept." },
  {
    name: "Exports",
    description: "Management API: the organization's records as CSV or JSON Lines, redacted if asked, by signed link.",
  },
  {
    name: "Usage",
    description: "Management API: triggers, replies, runs, tokens, cost and latency per hour, agent or key.",
  },
  {
    name: "Alerts",
    description:
      "Management API: alert rules over usage, keys, reviews and callbacks; their history; signed alert events.",
  },
  {
    name: "Members and invitations",
    description: "Management API: the organization's members and their roles; invitations, the only way in.",
  },
  { name: "Audit log", description: "Management API: who did what in the organization, with the console's filters." },
  {
    name: "Saved views",
    description: "Management API: a member's named filters of a console list, personal or shared.",
  },
  {
    name: "Organization sessions",
    description: "Management API: the sessions of every agent and their messages, with the console's filters.",
  },
  {
    name: "Search and timelines",
    description: "Management API: the console's search, and everything the organization holds about one end user.",
  },
  {
    name: "Organization overview",
    description: "Management API: the organization at a glance (the console's home page).",
  },
  {
    name: "Test console",
    description: "Management API: a person tries an agent: a draft chat, a manual run, the draft version too.",
  },
  { name: "Uploaded files", description: "Management API: an agent's uploaded files: listed, linked, deleted." },
  {
    name: "Webhook signing secret",
    description: "Management API: the secret that signs completion callbacks and alert events.",
  },
  {
    name: "Runs across agents",
    description: "Management API: the runs of every workflow agent, their items, approvals, controls and reruns.",
  },
  { name: "Reviews", description: "Management API: the items waiting for a person's decision, claimed and decided." },
  {
    name: "Bulk actions",
    description: "Management API: one run control on many runs, or many Access Keys revoked, previewed first.",
  },
  {
    name: "Callback deliveries",
    description: "Management API: the completion callbacks and alert events sent, their attempts, and sending again.",
  },
  { name: "Service", description: "Health and this document; no authentication." },
  {
    name: "Completion callbacks",
    description: "Signed POSTs the service sends to a trigger's `callback_url` (docs/api.md, Completion callbacks).",
  },
];

function sharedComponents() {
  const tus = tusHeaders();
  return {
    securitySchemes: {
      accessKey: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "ak_...",
        description: "An Access Key with `agents:invoke` (public API). Minted by the management API or the console.",
      },
      userToken: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "ut_...",
        description: "A user token (management API): printed on first start, or `npm run admin -- create-token`.",
      },
      consoleSession: {
        type: "apiKey",
        in: "cookie",
        name: "authjs.session-token",
        description:
          "The console's session cookie (`__Secure-authjs.session-token` over https), as a signed-in browser sends " +
          "it. A state-changing request with it must carry the console's own `Origin` (else `403 cross_site_request`); " +
          "with an `Authorization` header as well, the header decides.",
      },
    },
    headers: {
      "X-Request-Id": header(
        "The request's id (`req_...`), also in an error's `request_id`.",
        { type: "string" },
        true,
      ),
      "RateLimit-Limit": header("The key's requests a minute (absent when the key has no limit).", { type: "integer" }),
      "RateLimit-Remaining": header("Requests left in the current window.", { type: "integer" }),
      "RateLimit-Reset": header("Seconds until the window ends (1 to 60).", { type: "integer" }),
      "Retry-After": header("Seconds to wait before retrying.", { type: "integer" }),
      "Idempotent-Replayed": header("`true`: this is the stored answer of an earlier request with the same key."),
      ...tus.headers,
    },
    parameters: {
      "Idempotency-Key": {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "1 to 255 characters. The same key and body within 24 h replays the first answer and creates nothing; " +
          "another body, or a repeat while the first is running, is `409 idempotency_conflict`.",
        schema: { type: "string", minLength: 1, maxLength: 255 },
      },
      "Prefer-Wait": {
        name: "Prefer",
        in: "header",
        required: false,
        description: `\`wait=N\` (RFC 7240): long polling, at most ${MAX_WAIT_SECONDS} seconds.`,
        schema: { type: "string" },
        example: "wait=10",
      },
      ...tus.parameters,
    },
  };
}

const SECURITY: Record<Operation["auth"], Json[]> = {
  accessKey: [{ accessKey: [] }],
  member: [{ userToken: [] }, { consoleSession: [] }],
  none: [],
};

/**
 * Success answers get X-Request-Id (and RateLimit-* on the public API); the error answers are
 * shared responses (components.responses), one per status and set of codes.
 */
function operationObject(op: Operation, shared: Record<string, Json>): Json {
  const rateLimited = op.auth === "accessKey" && op.method !== "patch";
  const responses: Record<string, Json> = {};
  for (const [status, res] of Object.entries(op.responses)) {
    const headers = {
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
      ...(rateLimited
        ? {
            "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
            "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
            "RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
          }
        : {}),
      ...(res.headers as Json | undefined),
    };
    responses[status] = { ...res, headers };
  }
  for (const [status, codes] of errorGroups(op.errors)) {
    const res = errorResponse(status, codes, ERROR_DOCS);
    const own = responses[status];
    if (own) {
      // tus: the same status in the envelope (ours) and in plain text (the protocol's).
      responses[status] = {
        description: `${own.description as string}\n\n${res.description as string}`,
        headers: { ...(res.headers as Json), ...(own.headers as Json) },
        content: { ...(res.content as Json), ...(own.content as Json) },
      };
      continue;
    }
    const name = `Error${status}_${codes.join("_")}`;
    shared[name] ??= res;
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: SECURITY[op.auth],
    ...(op.parameters?.length ? { parameters: op.parameters } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    responses: sorted,
  };
}

export interface OpenApiDocument {
  openapi: string;
  info: Json;
  paths: Record<string, Record<string, Json>>;
  components: Json;
  [key: string]: unknown;
}

/**
 * The codes an operation can answer: its contract's, and what the request wrapper answers before
 * the route runs (lib/http/handler.ts): a path or query it cannot read or that fails its schema is
 * `invalid_request`, a body that is not JSON `invalid_json`.
 */
function requestErrors(contract: RouteContract): ErrorCode[] {
  const own = contract.errors ?? [];
  const wrapper: ErrorCode[] = [
    ...(checksPath(contract.params) || contract.query || contract.body ? (["invalid_request"] as const) : []),
    ...(contract.body ? (["invalid_json"] as const) : []),
  ];
  return [...own, ...wrapper.filter((code) => !own.includes(code))];
}

/**
 * Whether a path schema can refuse what the router hands it: a field that checks more than being
 * text (a version number, a secret's name). Most ids in a path are opaque: a malformed one is not
 * found (404), not refused.
 */
function checksPath(params: z.ZodType | undefined): boolean {
  if (!params) return false;
  if (!(params instanceof z.ZodObject)) return true;
  return Object.values(params.shape).some(
    (field) => !(field instanceof z.ZodString) || (field._zod.def.checks?.length ?? 0) > 0,
  );
}

/** The order of a path's operations in the document (the OpenAPI Path Item's own). */
const METHOD_ORDER = ["get", "put", "post", "delete", "options", "head", "patch"];

/**
 * The operations of the routes that are in the document (their contracts have OpenAPI prose),
 * sorted by path and method: the document does not depend on the order the contracts come in.
 */
export function operations(contracts: readonly RouteContract[], c = new Components()): Operation[] {
  namedParts(c);
  const ops = contracts.flatMap((contract): Operation[] => {
    if (!contract.openapi) return [];
    const { path, pathParams, responses, bodyExamples, parameters, requestBody, ...doc } = contract.openapi(c);
    const where = `${contract.method} ${contract.path}`;
    const opPath = path ?? openApiPath(contract.path);
    if (pathParams && !path) throw new Error(`openapi: ${where}: pathParams without a path of its own`);
    // The path's and the query's parameters and the JSON body, from the contract's own schemas.
    if (parameters?.some((p) => p.in === "path"))
      throw new Error(`openapi: ${where}: path parameters written out: they are the contract's params schema's`);
    const pathParts = pathParameters(opPath, pathParams ?? contract.params);
    const query = contract.query instanceof z.ZodObject ? queryParameters(contract.query) : [];
    if (query.length && parameters?.some((p) => p.in === "query"))
      throw new Error(`openapi: ${where}: query parameters written out beside the contract's query schema`);
    if (requestBody && bodyExamples) throw new Error(`openapi: ${where}: bodyExamples beside a requestBody of its own`);
    const body =
      requestBody ??
      (contract.body
        ? { required: !contract.bodyOptional, content: jsonContent(schemaRef(c, contract.body), bodyExamples) }
        : undefined);
    const allParameters = [...pathParts, ...(parameters ?? []), ...query];
    return [
      {
        ...doc,
        ...(allParameters.length ? { parameters: allParameters } : {}),
        ...(body ? { requestBody: body } : {}),
        responses: answerResponses(c, where, contract.responses, responses),
        method: contract.method.toLowerCase() as Operation["method"],
        path: opPath,
        auth: contract.auth === "accessKey" || contract.auth === "member" ? contract.auth : "none",
        errors: requestErrors(contract),
      },
    ];
  });
  return ops.sort(
    (a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
}

/** The document of the routes `contracts` describe (app/api/contracts.ts has them all). */
export function buildOpenApiDocument(contracts: readonly RouteContract[]): OpenApiDocument {
  const c = new Components();
  c.ref("ErrorEnvelope", ErrorEnvelope);
  c.ref(
    "ErrorCode",
    ErrorEnvelope.shape.error.shape.code,
    "The machine code of an error (lib/errors.ts); the table in the API's description says when each is answered.",
  );
  const ops = operations(contracts, c);
  const paths: Record<string, Record<string, Json>> = {};
  const responses: Record<string, Json> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} described twice`);
    item[op.method] = operationObject(op, responses);
  }
  const sortedResponses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: "3.1.1",
    info: {
      title: "Agent Webhook Service API",
      version: "0.1.0",
      summary: "Trigger hosted AI agents, upload files for them, poll replies and runs, control runs.",
      description: DESCRIPTION,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This server (the document's own origin)." }],
    tags: TAGS,
    security: [],
    paths,
    webhooks: callbackWebhooks(c),
    components: {
      schemas: c.schemas(),
      responses: sortedResponses,
      examples: errorExamples(CODES.filter((code) => ops.some((op) => op.errors.includes(code)))),
      ...sharedComponents(),
    },
  };
}

/** OpenAPI 3.1 `webhooks`: the completion callbacks, one per event. */
function callbackWebhooks(c: Components): Record<string, Json> {
  const message = c.ref("MessageRecord", MessageRecord);
  const run = c.ref("RunRecord", RunRecord);
  const alert = c.ref("AlertPayload", AlertPayload);
  const headerParam = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  const out: Record<string, Json> = {};
  for (const event of CALLBACK_EVENTS) {
    const isMessage = event.startsWith("message.");
    const isAlert = event.startsWith("alert.");
    out[event] = {
      post: {
        operationId: `callback_${event.replace(".", "_")}`,
        summary: `Callback: ${event}`,
        description:
          (isAlert
            ? "An alert rule fired or resolved, or an admin sent a test (`alert.test`) to the rule's URL (docs/api.md, Alerts)."
            : isMessage
              ? "A message's reply was stored (`completed`) or ended in error (`failed`). `data` is GET message's object."
              : "A run moved to this state. `data` is GET run's object.") +
          " Verify the signature with the organization's secret (e.g. the `standardwebhooks` package) before trusting it.",
        tags: ["Completion callbacks"],
        security: [],
        parameters: [
          headerParam("webhook-id", "The delivery id (`dlv_...`), the same on every retry and redelivery."),
          headerParam("webhook-timestamp", "Seconds since the epoch of this attempt."),
          headerParam("webhook-signature", "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the secret."),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "timestamp", "data"],
                properties: {
                  type: { type: "string", const: event },
                  timestamp: { type: "string", format: "date-time" },
                  data: isAlert ? alert : isMessage ? message : run,
                },
              },
            },
          },
        },
        responses: {
          "200": { description: "Any 2xx marks the delivery delivered; anything else is retried with backoff." },
        },
      },
    };
  }
  return out;
}

/** The document, built once per process, serialised, with its ETag. */
export function openApiDocument(contracts: readonly RouteContract[]): {
  body: string;
  etag: string;
  document: OpenApiDocument;
} {
  return processOnce("openApi", () => {
    const document = buildOpenApiDocument(contracts);
    const body = JSON.stringify(document);
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    return { body, etag, document };
  });
}
