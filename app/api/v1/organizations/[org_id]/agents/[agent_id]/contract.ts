import * as ex from "@/lib/http/openapi/examples";
import { AgentRecord, UpdateAgentBody } from "@/lib/agents/schemas";
import { jsonContent } from "@/lib/http/openapi/builder";
import { ADMIN_ERRORS, ORG_ID, USER_ERRORS } from "@/lib/http/openapi/management";
import { AGENT_ID, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "userToken",
  responses: { 200: AgentRecord },
  errors: [...USER_ERRORS, "agent_not_found"],
  openapi: () => ({
    operationId: "getAgent",
    summary: "Fetch an agent",
    tag: "Agents",
    description: "Archived agents too.",
    parameters: [ORG_ID, AGENT_ID],
    responses: {
      "200": { description: "The agent.", examples: { agent: { summary: "An agent", value: ex.agentRecord } } },
    },
  }),
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "userToken",
  body: UpdateAgentBody,
  admin: true,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "invalid_agent", "agent_not_found"],
  openapi: (c) => ({
    operationId: "updateAgent",
    summary: "Update an agent",
    tag: "Agents",
    description: "Admin only. Any of `name`, `project_id`, `runtime`, `workflow`; the `kind` cannot change.",
    parameters: [ORG_ID, AGENT_ID],
    requestBody: {
      required: true,
      content: jsonContent(c.ref("UpdateAgentBody", UpdateAgentBody), {
        rename: { summary: "Rename", value: { name: "Support bot (EU)" } },
      }),
    },
    responses: {
      "200": {
        description: "The agent.",
        examples: { agent: { summary: "Renamed", value: { ...ex.agentRecord, name: "Support bot (EU)" } } },
      },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "userToken",
  admin: true,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, "agent_not_found"],
  openapi: () => ({
    operationId: "archiveAgent",
    summary: "Archive an agent",
    tag: "Agents",
    description:
      "Admin only. The agent takes no new triggers or uploads (`409 agent_archived`); its sessions, messages, " +
      "runs and files stay readable and its runs controllable. Idempotent; cannot be undone.",
    parameters: [ORG_ID, AGENT_ID],
    responses: {
      "200": {
        description: "The archived agent.",
        examples: { archived: { summary: "Archived", value: { ...ex.agentRecord, archived_at: ex.EXAMPLE_TIME } } },
      },
    },
  }),
});
