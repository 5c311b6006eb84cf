import { AgentRecord, RollbackBody } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/rollback",
  auth: "console",
  admin: true,
  body: RollbackBody,
  bodyOptional: true,
  responses: { 200: AgentRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS, "agent_not_found", "nothing_to_roll_back"],
});
