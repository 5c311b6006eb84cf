import * as ex from "@/lib/openapi/examples";
import { ListMessagesQuery, MessageLimits, MessageList, SessionParams } from "@/lib/conversations/schemas";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions/[session_id]/messages",
  auth: "accessKey",
  params: SessionParams,
  query: ListMessagesQuery,
  responses: { 200: MessageList },
  errors: [...KEY_ERRORS, "invalid_request", "runtime_not_applicable", "session_not_found"],
  openapi: () => ({
    operationId: "listMessages",
    summary: "List messages",
    tag: "Conversations",
    description:
      "The session's user and assistant messages, oldest first. `next_cursor` (null on the last page) passed " +
      "as `cursor` answers the next page; `offset` must then be absent or 0.",
    responses: {
      "200": {
        description: "The messages.",
        examples: {
          messages: {
            summary: "A question and its reply",
            value: {
              messages: [ex.userMessage, ex.replyMessage],
              limit: MessageLimits.default,
              offset: 0,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
