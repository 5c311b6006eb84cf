import { AgentRecord } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/agents/[agent_id]/draft",
  auth: "console",
  admin: true,
  responses: { 200: AgentRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, "agent_not_found", "draft_conflict"],
});
