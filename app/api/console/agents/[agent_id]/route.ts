import { archiveAgent, getAgent } from "@/lib/agents/service";
import { updateAgent } from "@/lib/agents/versions";
import { agentReply } from "@/lib/http/agent-routes";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, async ({ organizationId, params }) =>
  agentReply(await getAgent({ organizationId, agentId: String(params.agent_id) })),
);

export const PATCH = withConsole(contract.PATCH, async ({ organizationId, actor, params, body, req }) =>
  agentReply(
    await updateAgent({
      organizationId,
      agentId: String(params.agent_id),
      input: body,
      ifMatch: req.headers.get("if-match"),
      actor,
    }),
  ),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
