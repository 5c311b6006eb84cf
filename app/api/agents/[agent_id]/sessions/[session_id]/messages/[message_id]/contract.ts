import * as ex from "@/lib/openapi/examples";
import { MessageParams, MessageRecord } from "@/lib/conversations/schemas";
import { header } from "@/lib/openapi/builder";
import { KEY_ERRORS, WAIT } from "@/lib/openapi/parts";
import { ANSWER, route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions/[session_id]/messages/[message_id]",
  auth: "accessKey",
  params: MessageParams,
  hot: true,
  responses: { 200: ANSWER.jsonOrEventStream(MessageRecord) },
  // invalid_request: a path the database cannot hold (a NUL: assertStorable in lib/http/handler.ts).
  errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found", "message_not_found", "invalid_request"],
  openapi: () => ({
    operationId: "getMessage",
    summary: "Fetch a message",
    tag: "Conversations",
    description:
      "Poll the reply of a trigger with the `message_id` it answered until `status` is `completed` or " +
      "`error`. `Prefer: wait=N` answers as soon as a reply still `processing` ends (long polling).",
    parameters: [WAIT],
    responses: {
      "200": {
        description:
          "The message. With `Accept: text/event-stream`, a stream that ends with the message once it is no " +
          "longer processing.",
        examples: {
          completed: { summary: "A completed reply", value: ex.messageRecord },
          error: { summary: "A reply that failed", value: ex.failedMessageRecord },
        },
        stream:
          "One `event: message` with the `MessageRecord` as soon as the message is no longer `processing` (at " +
          "once when it already ended), then the end. `: keep-alive` comments every 15 s.",
        example: `: keep-alive\n\nevent: message\ndata: ${JSON.stringify(ex.messageRecord)}\n\n`,
        headers: { "Preference-Applied": header("`wait=N`: the wait that was honoured.") },
      },
    },
  }),
});
