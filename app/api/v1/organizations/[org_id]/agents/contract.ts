import * as ex from "@/lib/openapi/examples";
import { AgentList, AgentRecord, CreateAgentBody, ManagementAgentListQuery } from "@/lib/agents/schemas";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents",
  auth: "member",
  params: OrgParams,
  body: CreateAgentBody,
  admin: true,
  responses: { 201: AgentRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "invalid_agent"],
  openapi: () => ({
    operationId: "createAgent",
    summary: "Create an agent",
    tag: "Agents",
    description:
      "Admin only. A workflow agent needs `workflow` (docs/workflows.md); a conversational agent takes none. " +
      "JSONata syntax errors are reported with the step's path.",
    bodyExamples: {
      conversational: { summary: "A conversational agent", value: ex.createConversationalAgent },
      openai: { summary: "An OpenAI agent whose key is an organization secret", value: ex.createOpenAiAgent },
      workflow: { summary: "A workflow agent", value: ex.createWorkflowAgent },
    },
    responses: {
      "201": { description: "The agent.", examples: { agent: { summary: "Created", value: ex.agentRecord } } },
    },
  }),
});

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents",
  auth: "member",
  params: OrgParams,
  query: ManagementAgentListQuery,
  responses: { 200: AgentList },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listAgents",
    summary: "List agents",
    tag: "Agents",
    description:
      "Newest first, a page at a time: `next_cursor` (null on the last page) passed as `cursor`, with the " +
      "same `include_archived`, answers the next page.",
    responses: {
      "200": {
        description: "The agents.",
        examples: {
          agents: { summary: "One agent", value: { agents: [ex.agentRecord], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});
