import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { OrgMessagePage, OrgMessagesQuery, OrgSessionParams } from "@/lib/conversations/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/sessions/[session_id]/messages",
  auth: "member",
  params: OrgSessionParams,
  query: OrgMessagesQuery,
  responses: { 200: OrgMessagePage },
  errors: [...USER_ERRORS, "invalid_request", "session_not_found"],
  openapi: () => ({
    operationId: "listOrganizationSessionMessages",
    summary: "List a session's messages",
    tag: "Organization sessions",
    description:
      "Every member. The messages of one session of the organization, oldest first, each with what it cost, " +
      "how long it took and its error. A page at a time: `next_cursor` (null on the last page) passed as " +
      "`cursor` answers the next page. Another organization's session, or none: `404 session_not_found`.",
    responses: {
      "200": {
        description: "A page of the session's messages, with their cost, time and error.",
        examples: {
          exchange: {
            summary: "An end user's question and the agent's reply",
            value: {
              messages: [
                {
                  ...ex.userMessage,
                  session_id: ex.ID.session,
                  agent_id: ex.ID.agent,
                  organization_id: ex.ID.org,
                  project_id: ex.ID.project,
                  cost: null,
                  processing_time_ms: null,
                  error: null,
                },
                ex.messageRecord,
              ],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
