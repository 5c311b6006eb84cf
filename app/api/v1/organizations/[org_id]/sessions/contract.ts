import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { OrgSessionPage, OrgSessionsQuery } from "@/lib/conversations/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

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
  params: OrgParams,
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
