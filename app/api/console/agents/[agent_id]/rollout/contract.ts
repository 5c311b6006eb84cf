import { AgentRecord, RolloutBody, RolloutReport } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/rollout",
  auth: "console",
  responses: { 200: RolloutReport },
  errors: [...CONSOLE_ERRORS, "agent_not_found"],
});

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/rollout",
  auth: "console",
  admin: true,
  body: RolloutBody,
  responses: { 200: AgentRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS, "agent_not_found", "no_rollout"],
});
