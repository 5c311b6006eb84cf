import { z } from "zod";
import { queryCursor, queryLimit, queryOffset } from "@/lib/validate";
import { AgentFilePage } from "@/lib/files/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

const FilesQuery = z.object({ limit: queryLimit(20, 100), offset: queryOffset, cursor: queryCursor });

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files",
  auth: "console",
  responses: { 200: AgentFilePage },
  errors: [...CONSOLE_ERRORS, "agent_not_found"],
  query: FilesQuery,
});
