import * as ex from "@/lib/openapi/examples";
import { ConversationAccepted, ConversationReply, ConversationTriggerBody } from "@/lib/conversations/schemas";
import { header, jsonContent } from "@/lib/openapi/builder";
import { IDEMPOTENCY_KEY, JSON_BODY_ERRORS, KEY_ERRORS, WorkflowInputs, ref } from "@/lib/openapi/parts";
import { RunAccepted } from "@/lib/runs/schemas";
import { JsonObject, AgentParams } from "@/lib/validate";
import { z } from "zod";
import { ANSWER, route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/agents/webhook/[agent_id]",
  auth: "accessKey",
  params: AgentParams,
  body: JsonObject,
  idempotency: "trigger",
  hot: true,
  responses: {
    200: ANSWER.jsonOrEventStream(ConversationReply),
    202: z.union([ConversationAccepted, RunAccepted]),
  },
  errors: [
    ...KEY_ERRORS,
    ...JSON_BODY_ERRORS,
    "file_not_found",
    "invalid_callback_url",
    "invalid_agent_version",
    "session_not_found",
    "agent_archived",
    "idempotency_conflict",
    "upstream_timeout",
    "upstream_error",
    "service_unavailable",
  ],
  openapi: (c) => ({
    operationId: "triggerAgent",
    summary: "Trigger an agent",
    tag: "Triggers",
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
        { anyOf: [c.ref("ConversationTriggerBody", ConversationTriggerBody), c.ref("WorkflowInputs", WorkflowInputs)] },
        {
          conversational: { summary: "A message for a conversational agent", value: ex.conversationTriggerBody },
          workflow: { summary: "Inputs of a workflow agent", value: ex.workflowInputs },
        },
      ),
    },
    responses: {
      "200": {
        description:
          "Conversational agent: the reply. With `Accept: text/event-stream`, the reply streamed as Server-Sent " +
          "Events (`Location` is the reply message's URL).",
        examples: { reply: { summary: "The agent's reply", value: ex.conversationReply } },
        stream:
          '`event: delta` with `data: {"content": "..."}` for each piece of the reply as the runtime produces ' +
          "it, then `event: message` with the `ConversationReply` object, or `event: error` with the error " +
          "envelope (`upstream_error`, `upstream_timeout`). `: keep-alive` comments every 15 s.",
        example:
          'event: delta\ndata: {"content":"Echo: "}\n\nevent: message\ndata: ' +
          `${JSON.stringify(ex.conversationReply)}\n\n`,
        headers: {
          "Idempotent-Replayed": ref("headers/Idempotent-Replayed"),
          Location: header("Streamed reply (`text/event-stream`): the URL (a path) of the reply message."),
        },
      },
      "202": {
        description: "Accepted: a conversational reply still to come (`Prefer: respond-async`), or a workflow run.",
        examples: {
          conversational: { summary: "Prefer: respond-async", value: ex.conversationAccepted },
          workflow: { summary: "A workflow run, pending", value: ex.runAccepted },
        },
        headers: {
          Location: header("Conversational: the URL (a path) of the reply message to poll."),
          "Preference-Applied": header("`respond-async` when the preference was honoured."),
          "Idempotent-Replayed": ref("headers/Idempotent-Replayed"),
        },
      },
    },
  }),
});
