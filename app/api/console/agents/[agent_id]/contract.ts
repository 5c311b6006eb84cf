import { AgentRecord, UpdateAgentBody } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
  responses: { 200: AgentRecord },
  errors: [...CONSOLE_ERRORS, "agent_not_found"],
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
  responses: { 200: AgentRecord },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_callback_url",
    "invalid_agent",
    "agent_not_found",
    "draft_conflict",
    "nothing_to_publish",
    "rollout_in_progress",
  ],
  body: UpdateAgentBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
  responses: { 200: AgentRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, "agent_not_found"],
  admin: true,
});
