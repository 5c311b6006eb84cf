import { UpdateAgentBody } from "@/lib/agents/schemas";
import { archiveAgent, getAgent, updateAgent } from "@/lib/agents/service";
import { withUserToken } from "@/lib/http/handler";

export const GET = withUserToken({}, async ({ organizationId, params }) =>
  getAgent({ organizationId, agentId: String(params.agent_id) }),
);

export const PATCH = withUserToken(
  { body: UpdateAgentBody, admin: true },
  async ({ organizationId, actor, params, body }) =>
    updateAgent({ organizationId, agentId: String(params.agent_id), input: body, actor }),
);

/** Archives the agent (no new triggers or uploads; its data stays readable). Idempotent. */
export const DELETE = withUserToken({ admin: true }, async ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
