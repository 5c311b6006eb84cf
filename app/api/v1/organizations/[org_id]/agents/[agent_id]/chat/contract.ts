import * as ex from "@/lib/openapi/examples";
import { ChatTestReply, ConversationTriggerBody } from "@/lib/conversations/schemas";
import { jsonContent } from "@/lib/openapi/builder";
import { USER_ERRORS } from "@/lib/openapi/management";
import { CONSOLE_START_ERRORS, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { JsonObject, OrgAgentParams } from "@/lib/validate";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/chat",
  auth: "member",
  params: OrgAgentParams,
  body: JsonObject,
  responses: { 200: ChatTestReply },
  errors: [
    ...USER_ERRORS,
    ...JSON_BODY_ERRORS,
    ...CONSOLE_START_ERRORS,
    "invalid_agent_version",
    "session_not_found",
    "upstream_timeout",
    "upstream_error",
    "service_unavailable",
  ],
  openapi: (c) => ({
    operationId: "chatWithAgent",
    summary: "Chat with an agent (test console)",
    tag: "Test console",
    description:
      "Every member. The console's test console: a message to a conversational agent, as a trigger's body " +
      "(`session_id` continues a conversation), answered when the reply is ready. Its session is a draft " +
      "(`environment: draft`): it never shows in the public API, and no completion callback is sent. " +
      "`agent_version` may name the draft as well as a published version. The answer is the trigger's, with " +
      "what the reply cost and which model made it. A workflow agent: `400 runtime_not_applicable`. " +
      "`502 upstream_timeout`: the reply is still being produced; `502 upstream_error`: it failed (both name " +
      "the session in `details`).",
    requestBody: {
      required: true,
      content: jsonContent(c.ref("ConversationTriggerBody", ConversationTriggerBody), {
        message: { summary: "A message, in a new session", value: { message: "Where is my order?" } },
        draft: {
          summary: "The next message, to the draft",
          value: { message: "And the invoice?", session_id: ex.ID.session, agent_version: 4 },
        },
      }),
    },
    responses: {
      "200": {
        description: "The reply.",
        examples: {
          reply: { summary: "The agent's reply", value: { ...ex.conversationReply, cost: 0, model: "echo" } },
        },
      },
    },
  }),
});
