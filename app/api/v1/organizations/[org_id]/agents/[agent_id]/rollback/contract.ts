import * as ex from "@/lib/openapi/examples";
import { AgentRecord, RollbackBody } from "@/lib/agents/schemas";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/rollback",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  body: RollbackBody,
  bodyOptional: true,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "agent_not_found", "nothing_to_roll_back"],
  openapi: () => ({
    operationId: "rollBackAgent",
    summary: "Roll back",
    tag: "Agent versions",
    description:
      "Admin only. Ends a rollout in progress (its version stops serving new sessions and runs), or else makes " +
      "the version that served before the published one live again, at once, for every new session and run. " +
      "Twice in a row returns to where it started. The draft is left as it is. Nothing served before: " +
      "`409 nothing_to_roll_back`. The body is optional.",
    bodyExamples: {
      note: { summary: "With a note", value: { note: "Errors from the new prompt" } },
    },
    responses: {
      "200": {
        description: "The agent, serving the version it rolled back to.",
        examples: { back: { summary: "Back to version 2", value: { ...ex.agentRecord, published_version: 2 } } },
      },
    },
  }),
});
