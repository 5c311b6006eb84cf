import { AgentList, AgentListQuery, AgentRecord, CreateAgentBody } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents",
  auth: "console",
  responses: { 200: AgentList },
  errors: [...CONSOLE_ERRORS],
  query: AgentListQuery,
});

export const POST = route({
  method: "POST",
  path: "/api/console/agents",
  auth: "console",
  responses: { 201: AgentRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "invalid_agent"],
  body: CreateAgentBody,
  admin: true,
});
