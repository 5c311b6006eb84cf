// The public webhook API (SPEC 4.1-4.9, Access Key): triggers, uploads, sessions and messages,
// runs, their controls and approvals; and the unauthenticated service routes.
import { z } from "zod";
import {
  ConversationAccepted,
  ConversationReply,
  ConversationTriggerBody,
  ListMessagesQuery,
  ListSessionsQuery,
  MessageLimits,
  MessageList,
  MessageListItem,
  MessageRecord,
  SessionLimits,
  SessionList,
  SessionListItem,
  SessionRecord,
  TokenUsage,
} from "../../conversations/schemas";
import { UploadedFile } from "../../files/schemas";
import { DOWNLOAD_PATH } from "../../files/signing";
import {
  Approval,
  ApprovalList,
  ControlQuery,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  ListRunsQuery,
  ResolveBody,
  ResolveResult,
  OutputFile,
  RunAccepted,
  RunEvent,
  RunList,
  RunListItem,
  RunRecord,
  RunStatus,
  WorkflowRunAccepted,
  WorkflowTriggerBody,
} from "../../runs/schemas";
import { RUN_STATUSES, type ControlAction } from "../../runs/state";
import { JsonObject } from "../../validate";
import {
  header,
  jsonContent,
  pathParameter,
  queryParameters,
  type Components,
  type Json,
  type Operation,
} from "./builder";
import * as ex from "./examples";

export const AGENT_ID = pathParameter("agent_id", "The agent (`agt_...`).", ex.ID.agent);
const SESSION_ID = pathParameter("session_id", "A session of this agent (`sess_...`).", ex.ID.session);
const MESSAGE_ID = pathParameter("message_id", "A message of this session (`msg_...`).", ex.ID.reply);
const RUN_ID = pathParameter("run_id", "A run of this agent (`run_...`).", ex.ID.run);

const ref = (name: string) => ({ $ref: `#/components/${name}` });
const IDEMPOTENCY_KEY = ref("parameters/Idempotency-Key");
const WAIT = ref("parameters/Prefer-Wait");

const ok = (description: string, content: Json, headers: Json = {}) => ({ description, headers, content });

/** The answer to `Accept: text/event-stream` (docs/api.md "Streaming replies (SSE)"). */
const eventStream = (description: string, example: string) => ({
  "text/event-stream": { schema: { type: "string", description }, example },
});

/** Errors every Access Key route can answer before its own work (SPEC 5; docs/api.md Rate limits). */
const KEY_ERRORS = ["unauthorized", "forbidden", "agent_not_found", "rate_limited"] as const;
const JSON_BODY_ERRORS = ["invalid_json", "invalid_request", "payload_too_large", "unsupported_media_type"] as const;

export function publicOperations(c: Components): Operation[] {
  // Named parts of the records below, so that clients get them as types of their own.
  c.ref("TokenUsage", TokenUsage);
  c.ref("SessionListItem", SessionListItem);
  c.ref("MessageListItem", MessageListItem);
  c.ref("RunStatus", RunStatus);
  c.ref("RunListItem", RunListItem);
  c.ref("OutputFile", OutputFile);
  c.ref("RunEvent", RunEvent);
  c.ref("Approval", Approval);
  const conversationBody = c.ref("ConversationTriggerBody", ConversationTriggerBody);
  const workflowInputs = c.ref(
    "WorkflowInputs",
    JsonObject.meta({
      description:
        "A workflow agent's input fields (its definition's `inputs`), checked against their declared types. " +
        'A field of type `file` takes a file reference `{"file_id": "fi_..."}`. An optional `callback_url` ' +
        "(not an input unless the workflow declares one of that name) receives the run's completion callbacks.",
    }),
  );
  return [
    {
      method: "post",
      path: "/api/agents/webhook/{agent_id}",
      operationId: "triggerAgent",
      summary: "Trigger an agent",
      tag: "Triggers",
      auth: "accessKey",
      description: [
        "One JSON object (at most 1 MiB). The agent's kind decides what happens:",
        "- **Conversational agent**: the body is a message. By default the call waits (up to 25 s) for the reply " +
          "and answers `200` with it. `Prefer: respond-async` answers `202` at once with the reply's `message_id` " +
          "(`Location` is its URL): poll it. `Prefer: wait=N` waits at most N seconds.\n" +
          "- **Workflow agent**: the body holds the agent's input fields; the run is created `pending` and runs in " +
          "the background (`202`). Poll the run.",
        'Any object `{"file_id": "fi_..."}` (that single key) in the body is replaced, before the agent runs, by ' +
          "the file's metadata and a signed URL. `Idempotency-Key` makes a retry safe: the same key and body " +
          "within 24 h replays the first answer (`Idempotent-Replayed: true`).",
        "`502 upstream_timeout` means the reply is still being produced: poll the message named in `details`. " +
          "`502 upstream_error` means the message ended in error: retry with backoff.",
      ].join("\n\n"),
      parameters: [
        AGENT_ID,
        IDEMPOTENCY_KEY,
        {
          name: "Prefer",
          in: "header",
          required: false,
          description:
            "Conversational agents (RFC 7240): `respond-async` answers `202` at once; `wait=N` waits at most N " +
            "seconds for the reply (never longer than the service's limit, 25 s by default).",
          schema: { type: "string" },
          examples: { async: { value: "respond-async" }, wait: { value: "wait=5" } },
        },
      ],
      requestBody: {
        required: true,
        content: jsonContent(
          { anyOf: [conversationBody, workflowInputs] },
          {
            conversational: { summary: "A message for a conversational agent", value: ex.conversationTriggerBody },
            workflow: { summary: "Inputs of a workflow agent", value: ex.workflowInputs },
          },
        ),
      },
      responses: {
        "200": ok(
          "Conversational agent: the reply. With `Accept: text/event-stream`, the reply streamed as Server-Sent " +
            "Events (`Location` is the reply message's URL).",
          {
            ...jsonContent(c.ref("ConversationReply", ConversationReply), {
              reply: { summary: "The agent's reply", value: ex.conversationReply },
            }),
            ...eventStream(
              '`event: delta` with `data: {"content": "..."}` for each piece of the reply as the runtime produces ' +
                "it, then `event: message` with the `ConversationReply` object, or `event: error` with the error " +
                "envelope (`upstream_error`, `upstream_timeout`). `: keep-alive` comments every 15 s.",
              'event: delta\ndata: {"content":"Echo: "}\n\nevent: message\ndata: ' +
                `${JSON.stringify(ex.conversationReply)}\n\n`,
            ),
          },
          {
            "Idempotent-Replayed": ref("headers/Idempotent-Replayed"),
            Location: header("Streamed reply (`text/event-stream`): the URL (a path) of the reply message."),
          },
        ),
        "202": ok(
          "Accepted: a conversational reply still to come (`Prefer: respond-async`), or a workflow run.",
          jsonContent(
            { anyOf: [c.ref("ConversationAccepted", ConversationAccepted), c.ref("RunAccepted", RunAccepted)] },
            {
              conversational: { summary: "Prefer: respond-async", value: ex.conversationAccepted },
              workflow: { summary: "A workflow run, pending", value: ex.runAccepted },
            },
          ),
          {
            Location: header("Conversational: the URL (a path) of the reply message to poll."),
            "Preference-Applied": header("`respond-async` when the preference was honoured."),
            "Idempotent-Replayed": ref("headers/Idempotent-Replayed"),
          },
        ),
      },
      errors: [
        ...KEY_ERRORS,
        ...JSON_BODY_ERRORS,
        "file_not_found",
        "invalid_callback_url",
        "session_not_found",
        "agent_archived",
        "idempotency_conflict",
        "upstream_timeout",
        "upstream_error",
        "service_unavailable",
      ],
    },
    {
      method: "post",
      path: "/api/agents/{agent_id}/upload",
      operationId: "uploadFile",
      summary: "Upload a file",
      tag: "Files",
      auth: "accessKey",
      description:
        "A `multipart/form-data` body with exactly one part named `file`, streamed to storage (no size cap on " +
        "the wire but `UPLOAD_MAX_BYTES`, 50 GiB by default; up to 60 minutes). The answer's `file_id` is used " +
        'as `{"file_id": "fi_..."}` in a trigger body of the same agent. A failed or aborted upload leaves ' +
        "nothing behind. For unreliable links use the resumable (tus) endpoint.",
      parameters: [AGENT_ID],
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: {
                  type: "string",
                  format: "binary",
                  contentMediaType: "application/octet-stream",
                  description: "The file; its part's filename and Content-Type are kept.",
                },
              },
              required: ["file"],
            },
          },
        },
      },
      responses: {
        "200": ok(
          "The stored file.",
          jsonContent(c.ref("UploadedFile", UploadedFile), { file: { summary: "A CSV file", value: ex.uploadedFile } }),
        ),
      },
      errors: [
        ...KEY_ERRORS,
        "missing_file",
        "empty_file",
        "invalid_request",
        "agent_archived",
        "payload_too_large",
        "unsupported_media_type",
        "upload_failed",
      ],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/sessions",
      operationId: "listSessions",
      summary: "List sessions",
      tag: "Conversations",
      auth: "accessKey",
      description:
        "Production sessions of a conversational agent, most recently active first. Other query parameters " +
        "are ignored.",
      parameters: [
        AGENT_ID,
        ...queryParameters(ListSessionsQuery, {
          limit: `Maximum sessions to return (default ${SessionLimits.default}, capped at ${SessionLimits.cap}).`,
          status: "Only sessions with this status (for example `active`).",
          since: "Only sessions with activity after this time (ISO 8601 date or date-time; without an offset, UTC).",
        }),
      ],
      responses: {
        "200": ok(
          "The sessions.",
          jsonContent(c.ref("SessionList", SessionList), {
            sessions: {
              summary: "One session",
              value: { sessions: [ex.sessionListItem], limit: SessionLimits.default },
            },
          }),
        ),
      },
      errors: [...KEY_ERRORS, "invalid_request", "runtime_not_applicable"],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/sessions/{session_id}",
      operationId: "getSession",
      summary: "Fetch a session",
      tag: "Conversations",
      auth: "accessKey",
      parameters: [AGENT_ID, SESSION_ID],
      responses: {
        "200": ok(
          "The session.",
          jsonContent(c.ref("SessionRecord", SessionRecord), {
            session: { summary: "A session", value: ex.sessionRecord },
          }),
        ),
      },
      errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found"],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/sessions/{session_id}/messages",
      operationId: "listMessages",
      summary: "List messages",
      tag: "Conversations",
      auth: "accessKey",
      description: "The session's user and assistant messages, oldest first.",
      parameters: [
        AGENT_ID,
        SESSION_ID,
        ...queryParameters(ListMessagesQuery, {
          limit: `Maximum messages to return (default ${MessageLimits.default}, capped at ${MessageLimits.cap}).`,
          offset: "Messages to skip (default 0).",
          role: "Only `user` or only `assistant` messages.",
        }),
      ],
      responses: {
        "200": ok(
          "The messages.",
          jsonContent(c.ref("MessageList", MessageList), {
            messages: {
              summary: "A question and its reply",
              value: { messages: [ex.userMessage, ex.replyMessage], limit: MessageLimits.default, offset: 0 },
            },
          }),
        ),
      },
      errors: [...KEY_ERRORS, "invalid_request", "runtime_not_applicable", "session_not_found"],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/sessions/{session_id}/messages/{message_id}",
      operationId: "getMessage",
      summary: "Fetch a message",
      tag: "Conversations",
      auth: "accessKey",
      description:
        "Poll the reply of a trigger with the `message_id` it answered until `status` is `completed` or " +
        "`error`. `Prefer: wait=N` answers as soon as a reply still `processing` ends (long polling).",
      parameters: [AGENT_ID, SESSION_ID, MESSAGE_ID, WAIT],
      responses: {
        "200": ok(
          "The message. With `Accept: text/event-stream`, a stream that ends with the message once it is no " +
            "longer processing.",
          {
            ...jsonContent(c.ref("MessageRecord", MessageRecord), {
              completed: { summary: "A completed reply", value: ex.messageRecord },
              error: { summary: "A reply that failed", value: ex.failedMessageRecord },
            }),
            ...eventStream(
              "One `event: message` with the `MessageRecord` as soon as the message is no longer `processing` (at " +
                "once when it already ended), then the end. `: keep-alive` comments every 15 s.",
              `: keep-alive\n\nevent: message\ndata: ${JSON.stringify(ex.messageRecord)}\n\n`,
            ),
          },
          { "Preference-Applied": header("`wait=N`: the wait that was honoured.") },
        ),
      },
      errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found", "message_not_found"],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/runs",
      operationId: "listRuns",
      summary: "List runs",
      tag: "Workflow runs",
      auth: "accessKey",
      description: "A bare JSON array of the agent's runs, newest first, without `output_files` and `events`.",
      parameters: [
        AGENT_ID,
        ...queryParameters(ListRunsQuery, {
          limit: `Maximum runs to return (default ${LIST_LIMIT_DEFAULT}, capped at ${LIST_LIMIT_MAX}).`,
          status: `Only runs in this state: one of ${RUN_STATUSES.map((s) => `\`${s}\``).join(", ")} (else \`400 invalid_status\`).`,
        }),
      ],
      responses: {
        "200": ok(
          "The runs.",
          jsonContent(c.ref("RunList", RunList), { runs: { summary: "One run", value: [ex.runListItem] } }),
        ),
      },
      errors: [...KEY_ERRORS, "invalid_request", "invalid_status", "runtime_not_applicable"],
    },
    {
      method: "get",
      path: "/api/agents/{agent_id}/runs/{run_id}",
      operationId: "getRun",
      summary: "Fetch a run",
      tag: "Workflow runs",
      auth: "accessKey",
      description:
        "The run with its output files (each with a signed URL valid for 15 minutes, fresh on every GET) and " +
        "its audit trail. `Prefer: wait=N` answers as soon as the run's status changes (long polling).",
      parameters: [AGENT_ID, RUN_ID, WAIT],
      responses: {
        "200": ok(
          "The run.",
          jsonContent(c.ref("RunRecord", RunRecord), { run: { summary: "A completed run", value: ex.runRecord } }),
          { "Preference-Applied": header("`wait=N`: the wait that was honoured.") },
        ),
      },
      errors: [...KEY_ERRORS, "runtime_not_applicable", "run_not_found"],
    },
    ...(["pause", "resume", "cancel", "retry"] as const).map((action) => controlOperation(c, action)),
    {
      method: "get",
      path: "/api/agents/{agent_id}/runs/{run_id}/approvals",
      operationId: "listApprovals",
      summary: "List open approvals",
      tag: "Workflow runs",
      auth: "accessKey",
      description:
        "Items waiting for a person: a `review` step matched, or a step failed unexpectedly. Each blocks the " +
        "run in `needs_review` until it is resolved.",
      parameters: [AGENT_ID, RUN_ID],
      responses: {
        "200": ok(
          "The open approvals.",
          jsonContent(c.ref("ApprovalList", ApprovalList), {
            approvals: { summary: "One approval", value: [ex.approval] },
          }),
        ),
      },
      errors: [...KEY_ERRORS, "runtime_not_applicable", "run_not_found"],
    },
    {
      method: "post",
      path: "/api/agents/{agent_id}/runs/{run_id}/approvals/resolve",
      operationId: "resolveApproval",
      summary: "Resolve an approval",
      tag: "Workflow runs",
      auth: "accessKey",
      description:
        "`approved` and `modified` (with `modified_data` as the item) send the item on through the remaining " +
        "steps; `rejected` fails it. When the last open approval of a `needs_review` run is resolved, the run " +
        "resumes by itself (`resumed: true`).",
      parameters: [AGENT_ID, RUN_ID],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("ResolveBody", ResolveBody), {
          approve: { summary: "Approve", value: ex.resolveBody },
          modify: {
            summary: "Approve with changes",
            value: { exception_id: ex.ID.exception, resolution: "modified", modified_data: { order: 1234, qty: 3 } },
          },
        }),
      },
      responses: {
        "200": ok(
          "Resolved.",
          jsonContent(c.ref("ResolveResult", ResolveResult), {
            resolved: { summary: "The last one", value: ex.resolveResult },
          }),
        ),
      },
      errors: [
        ...KEY_ERRORS,
        ...JSON_BODY_ERRORS,
        "invalid_resolution",
        "runtime_not_applicable",
        "run_not_found",
        "approval_not_found",
        "invalid_state_transition",
      ],
    },
    {
      method: "post",
      path: "/api/workflows/{agent_id}/trigger",
      operationId: "triggerWorkflow",
      summary: "Trigger a workflow (client SDK form)",
      tag: "Triggers",
      auth: "accessKey",
      description:
        "The existing client SDK's trigger: the run's inputs are `payload` merged with `variables`. A body " +
        "without `payload` whose top-level keys are input names is refused (`400 invalid_request`) rather " +
        "than started without them.",
      parameters: [AGENT_ID, IDEMPOTENCY_KEY],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("WorkflowTriggerBody", WorkflowTriggerBody), {
          trigger: { summary: "Inputs in payload", value: { payload: ex.workflowInputs, variables: {} } },
        }),
      },
      responses: {
        "202": ok(
          "The run was created.",
          jsonContent(c.ref("WorkflowRunAccepted", WorkflowRunAccepted), {
            triggered: { summary: "Triggered", value: ex.workflowRunAccepted },
          }),
          { "Idempotent-Replayed": ref("headers/Idempotent-Replayed") },
        ),
      },
      errors: [
        ...KEY_ERRORS,
        ...JSON_BODY_ERRORS,
        "file_not_found",
        "invalid_callback_url",
        "runtime_not_applicable",
        "agent_archived",
        "idempotency_conflict",
      ],
    },
    {
      method: "get",
      path: DOWNLOAD_PATH,
      operationId: "downloadFile",
      summary: "Download a file (signed URL)",
      tag: "Files",
      auth: "none",
      description:
        "The `url` of a resolved file reference or of a run's output file: the token is the credential (no " +
        "Authorization), valid for 15 minutes. A single `Range` gives `206`. With S3 storage " +
        "(`STORAGE_URL=s3://...`) a request without `Range` is answered `302` to a presigned URL of the " +
        "object, valid 15 minutes, that serves the same type and filename: follow redirects.",
      parameters: [
        { name: "token", in: "query", required: true, description: "The signed token.", schema: { type: "string" } },
        {
          name: "Range",
          in: "header",
          required: false,
          description: "One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-512`).",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": binaryFile("The file."),
        "206": binaryFile("The requested range.", {
          "Content-Range": header("`bytes start-end/size`."),
        }),
        "302": {
          description: "S3 storage, whole file: fetch the presigned URL in `Location` (valid 15 minutes).",
          headers: { Location: header("Presigned GET of the stored object.", { type: "string", format: "uri" }, true) },
        },
      },
      errors: ["invalid_request", "invalid_signature", "url_expired", "not_found", "range_not_satisfiable"],
    },
    {
      method: "get",
      path: "/api/health",
      operationId: "health",
      summary: "Health",
      tag: "Service",
      auth: "none",
      description: "`200` when the database answers.",
      responses: {
        "200": ok(
          "Healthy.",
          jsonContent(c.ref("Health", z.strictObject({ status: z.literal("ok") })), {
            ok: { summary: "Healthy", value: { status: "ok" } },
          }),
        ),
      },
      errors: ["service_unavailable"],
    },
    {
      method: "get",
      path: "/api/ready",
      operationId: "ready",
      summary: "Readiness",
      tag: "Service",
      auth: "none",
      description:
        "For a load balancer's readiness probe (`/api/health` is liveness). `200` when the database answers and " +
        "the job queue is started, each checked within 2 s; `503` otherwise (`details.checks` says which did " +
        "not: `failed` or `timeout`) and from the moment the server begins a graceful shutdown " +
        "(`details.shutting_down`).",
      responses: {
        "200": ok(
          "Ready.",
          jsonContent(
            c.ref(
              "Readiness",
              z.strictObject({
                status: z.literal("ready"),
                checks: z.strictObject({ database: z.literal("ok"), queue: z.literal("ok") }),
              }),
            ),
            { ready: { summary: "Ready", value: { status: "ready", checks: { database: "ok", queue: "ok" } } } },
          ),
        ),
      },
      errors: ["service_unavailable"],
    },
    {
      method: "get",
      path: "/api/metrics",
      operationId: "metrics",
      summary: "Prometheus metrics",
      tag: "Service",
      auth: "none",
      description:
        "The Prometheus text format (docs/deploy.md lists every metric). Open unless the server has " +
        "`METRICS_TOKEN` set; then only `Authorization: Bearer <METRICS_TOKEN>` is answered (`401` otherwise). " +
        "With several server processes the answer is their sum. `503` when they could not be collected.",
      parameters: [
        {
          name: "Authorization",
          in: "header",
          required: false,
          description: "`Bearer <METRICS_TOKEN>`, when the server has one.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": ok("The metrics.", {
          "text/plain; version=0.0.4; charset=utf-8": {
            schema: { type: "string" },
            example:
              "# HELP agent_webhook_queue_depth Jobs ready to run and waiting for a worker, per queue.\n" +
              "# TYPE agent_webhook_queue_depth gauge\n" +
              'agent_webhook_queue_depth{queue="run"} 0\n',
          },
        }),
      },
      errors: ["unauthorized", "service_unavailable"],
    },
    {
      method: "get",
      path: "/api/openapi.json",
      operationId: "openApiDocument",
      summary: "This OpenAPI document",
      tag: "Service",
      auth: "none",
      description:
        "OpenAPI 3.1, generated from the zod schemas the routes validate with. Cacheable: `ETag` and " +
        "`If-None-Match` (`304`).",
      parameters: [
        {
          name: "If-None-Match",
          in: "header",
          required: false,
          description: "The `ETag` of a copy the client holds.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": ok(
          "The document.",
          { "application/json": { schema: { type: "object" } } },
          {
            ETag: header("Changes when the document does."),
            "Cache-Control": header("`public, max-age=300`."),
          },
        ),
        "304": {
          description: "Not modified: the copy the client holds is current.",
          headers: { ETag: header("As before.") },
        },
      },
      errors: [],
    },
  ];
}

function binaryFile(description: string, headers: Json = {}) {
  return {
    description,
    headers: {
      "Content-Type": header("The file's media type."),
      "Content-Length": header("Bytes in this answer.", { type: "integer" }),
      "Content-Disposition": header("`attachment` with the file's name."),
      ...headers,
    },
    // The file's own media type, whatever it is.
    content: { "*/*": { schema: { type: "string", format: "binary" } } },
  };
}

const CONTROL_TEXT: Record<ControlAction, { summary: string; description: string }> = {
  pause: { summary: "Pause a run", description: "From `running` or `pending` to `paused`, at the next item boundary." },
  resume: {
    summary: "Resume a run",
    description:
      "From `paused`, `needs_review` or `running` to `running` (items still waiting for review stay waiting).",
  },
  cancel: {
    summary: "Cancel a run",
    description:
      "From `running`, `pending`, `needs_review` or `paused` to `cancelled`; an upstream call in flight is aborted.",
  },
  retry: {
    summary: "Retry a failed run",
    description: "From `failed`: re-runs the same run with the same inputs from the failed step (back to `pending`).",
  },
};

function controlOperation(c: Components, action: ControlAction): Operation {
  return {
    method: "post",
    path: `/api/agents/{agent_id}/runs/{run_id}/${action}`,
    operationId: `${action}Run`,
    summary: CONTROL_TEXT[action].summary,
    tag: "Workflow runs",
    auth: "accessKey",
    description:
      `${CONTROL_TEXT[action].description} The body is empty. From any other state: ` +
      "`409 invalid_state_transition` with `details: {current_status, allowed_actions}`.",
    parameters: [
      AGENT_ID,
      RUN_ID,
      ...queryParameters(ControlQuery, { triggered_by: "An attribution label recorded in the run's audit trail." }),
    ],
    responses: {
      "200": {
        description: "The run after the move.",
        headers: {},
        content: jsonContent(c.ref("RunRecord", RunRecord), {
          run: { summary: `After ${action}`, value: ex.controlledRun(action) },
        }),
      },
    },
    errors: [...KEY_ERRORS, "invalid_request", "runtime_not_applicable", "run_not_found", "invalid_state_transition"],
  };
}
