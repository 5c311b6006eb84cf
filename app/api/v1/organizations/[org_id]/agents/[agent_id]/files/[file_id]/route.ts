import { loadAgentForKey } from "@/lib/agents/service";
import { deleteFile, fileLink } from "@/lib/files/console";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params, baseUrl }) => {
  const agent = await loadAgentForKey(organizationId, params.agent_id);
  return fileLink({ organizationId, agentId: agent.id, fileId: params.file_id, baseUrl });
});

export const DELETE = withMember(contract.DELETE, async ({ organizationId, params, actor }) => {
  const agent = await loadAgentForKey(organizationId, params.agent_id);
  return deleteFile({ organizationId, agentId: agent.id, fileId: params.file_id, actor });
});
