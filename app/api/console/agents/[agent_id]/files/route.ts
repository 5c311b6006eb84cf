import { loadAgentForKey } from "@/lib/agents/service";
import { listAgentFiles } from "@/lib/files/resumable";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, async ({ organizationId, params, query }) => {
  const agent = await loadAgentForKey(organizationId, String(params.agent_id));
  return listAgentFiles({ organizationId, agentId: agent.id, ...query });
});
