import { z } from "zod";
import { queryCursor, queryLimit, queryOffset } from "@/lib/validate";
import { route } from "@/lib/http/contract";

const FilesQuery = z.object({ limit: queryLimit(20, 100), offset: queryOffset, cursor: queryCursor });

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files",
  auth: "console",
  query: FilesQuery,
});
