import { z } from "zod";
import { queryLimit, queryOffset } from "@/lib/validate";
import { route } from "@/lib/http/contract";
import { CursorParam } from "@/lib/pagination";

const FilesQuery = z.object({ limit: queryLimit(20, 100), offset: queryOffset, cursor: CursorParam });

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files",
  auth: "console",
  query: FilesQuery,
});
