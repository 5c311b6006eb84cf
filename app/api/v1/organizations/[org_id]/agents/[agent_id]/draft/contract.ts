import * as ex from "@/lib/openapi/examples";
import { AgentRecord } from "@/lib/agents/schemas";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { IF_MATCH } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/draft",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, "invalid_request", "agent_not_found", "draft_conflict"],
  openapi: () => ({
    operationId: "discardAgentDraft",
    summary: "Discard the draft",
    tag: "Agent versions",
    description:
      "Admin only. The agent has no draft any more; the version stays in the list as `superseded`. Idempotent. " +
      "With `If-Match`, only that draft is discarded (`409 draft_conflict` otherwise).",
    parameters: [IF_MATCH],
    responses: {
      "200": { description: "The agent.", examples: { agent: { summary: "No draft", value: ex.agentRecord } } },
    },
  }),
});
