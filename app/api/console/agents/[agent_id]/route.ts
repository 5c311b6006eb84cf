import { archiveAgent, getAgent, updateAgent } from "@/lib/agents/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  getAgent({ organizationId, agentId: String(params.agent_id) }),
);

export const PATCH = withConsole(contract.PATCH, ({ organizationId, actor, params, body }) =>
  updateAgent({ organizationId, agentId: String(params.agent_id), input: body, actor }),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
