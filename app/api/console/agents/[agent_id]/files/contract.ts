import { z } from "zod";
import { queryLimit, queryOffset } from "@/lib/validate";
import { route } from "@/lib/http/contract";

const FilesQuery = z.object({ limit: queryLimit(20, 100), offset: queryOffset });

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files",
  auth: "console",
  query: FilesQuery,
});
