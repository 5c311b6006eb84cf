import * as ex from "@/lib/openapi/examples";
import { ORG_ID, USER_ERRORS } from "@/lib/openapi/management";
import { OrgSessionPage, OrgSessionsQuery } from "@/lib/conversations/schemas";
import { route } from "@/lib/http/contract";

/** A session of the organization as its lists answer it (an example). */
const orgSessionListItem = {
  ...ex.sessionListItem,
  agent_name: "Support bot",
  environment: "production",
  agent_version: 3,
};

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/sessions",
  auth: "member",
  query: OrgSessionsQuery,
  responses: { 200: OrgSessionPage },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listOrganizationSessions",
    summary: "List the organization's sessions",
    tag: "Organization sessions",
    description:
      "Every member. The sessions of every conversational agent of the organization, the test console's drafts " +
      "too (`environment`), most recently active first, with the console's filters (docs/console.md, List " +
      "filters). A page at a time: `next_cursor` (null on the last page) passed as `cursor`, with the same " +
      "filters, answers the next page.",
    parameters: [ORG_ID],
    queryDocs: {
      from: "Only sessions active at or after this instant (their last message; RFC 3339, or a date).",
      to: "Only sessions last active before this instant (RFC 3339, or a date: through its end, UTC).",
      agent_id: "Only this agent's sessions (`agt_...`).",
      status: "`active` or `closed`.",
      user_id: "Only this end user's sessions (the trigger's `user_id`).",
      since: "Only sessions with a message after this instant (RFC 3339).",
      environment: "`production` (triggers), `draft` (the test console) or `all` (the default).",
      agent_version: "With `agent_id`: the sessions that started with this version of it.",
    },
    responses: {
      "200": {
        description: "A page of the organization's sessions.",
        examples: {
          production: {
            summary: "A production session of the support bot",
            value: { sessions: [orgSessionListItem], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});
