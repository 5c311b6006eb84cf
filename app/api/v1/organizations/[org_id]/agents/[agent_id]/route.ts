import { archiveAgent, getAgent, updateAgent } from "@/lib/agents/service";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, async ({ organizationId, params }) =>
  getAgent({ organizationId, agentId: String(params.agent_id) }),
);

export const PATCH = withUserToken(contract.PATCH, async ({ organizationId, actor, params, body }) =>
  updateAgent({ organizationId, agentId: String(params.agent_id), input: body, actor }),
);

/** Archives the agent (no new triggers or uploads; its data stays readable). Idempotent. */
export const DELETE = withUserToken(contract.DELETE, async ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
