import { loadAgentForKey } from "@/lib/agents/service";
import { listAgentFiles } from "@/lib/files/resumable";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params, query }) => {
  const agent = await loadAgentForKey(organizationId, String(params.agent_id));
  return listAgentFiles({ organizationId, agentId: agent.id, ...query });
});
