import { AgentFilePage, AgentFilesQuery } from "@/lib/files/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files",
  auth: "console",
  responses: { 200: AgentFilePage },
  errors: [...CONSOLE_ERRORS, "agent_not_found"],
  query: AgentFilesQuery,
});
