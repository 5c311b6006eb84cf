import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { OrgSessionRecord, OrgSessionParams } from "@/lib/conversations/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/sessions/[session_id]",
  auth: "member",
  params: OrgSessionParams,
  responses: { 200: OrgSessionRecord },
  errors: [...USER_ERRORS, "session_not_found"],
  openapi: () => ({
    operationId: "getOrganizationSession",
    summary: "Get a session of the organization",
    tag: "Organization sessions",
    description:
      "Every member. One session of any agent of the organization, a test console draft too, with its agent's " +
      "name, its environment and the version it started with. Another organization's, or none: " +
      "`404 session_not_found`.",
    responses: {
      "200": {
        description: "The session.",
        examples: {
          session: {
            summary: "A session",
            value: { ...ex.sessionRecord, agent_name: "Support bot", environment: "production", agent_version: 3 },
          },
        },
      },
    },
  }),
});
