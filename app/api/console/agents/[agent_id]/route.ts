import { UpdateAgentBody } from "@/lib/agents/schemas";
import { archiveAgent, getAgent, updateAgent } from "@/lib/agents/service";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({}, ({ organizationId, params }) =>
  getAgent({ organizationId, agentId: String(params.agent_id) }),
);

export const PATCH = withConsole({ body: UpdateAgentBody, admin: true }, ({ organizationId, actor, params, body }) =>
  updateAgent({ organizationId, agentId: String(params.agent_id), input: body, actor }),
);

export const DELETE = withConsole({ admin: true }, ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
