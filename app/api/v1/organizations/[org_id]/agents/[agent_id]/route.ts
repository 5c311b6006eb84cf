import { UpdateAgentBody } from "@/lib/agents/schemas";
import { getAgent, updateAgent } from "@/lib/agents/service";
import { withUserToken } from "@/lib/http/handler";

export const GET = withUserToken({}, async ({ organizationId, params }) =>
  getAgent({ organizationId, agentId: String(params.agent_id) }),
);

export const PATCH = withUserToken(
  { body: UpdateAgentBody, admin: true },
  async ({ organizationId, actor, params, body }) =>
    updateAgent({ organizationId, agentId: String(params.agent_id), input: body, actor }),
);
