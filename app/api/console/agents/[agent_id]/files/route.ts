import { z } from "zod";
import { CursorParam } from "@/lib/pagination";
import { loadAgentForKey } from "@/lib/agents/service";
import { listAgentFiles } from "@/lib/files/resumable";
import { withConsole } from "@/lib/http/console";
import { queryLimit, queryOffset } from "@/lib/validate";

const FilesQuery = z.object({ limit: queryLimit(20, 100), offset: queryOffset, cursor: CursorParam });

export const GET = withConsole({ query: FilesQuery }, async ({ organizationId, params, query }) => {
  const agent = await loadAgentForKey(organizationId, String(params.agent_id));
  return listAgentFiles({ organizationId, agentId: agent.id, ...query });
});
