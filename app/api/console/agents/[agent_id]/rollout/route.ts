import { changeRollout, rolloutReport } from "@/lib/agents/versions";
import { agentReply } from "@/lib/http/agent-routes";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  rolloutReport({ organizationId, agentId: String(params.agent_id) }),
);

export const POST = withConsole(contract.POST, async ({ organizationId, actor, params, body }) =>
  agentReply(await changeRollout({ organizationId, agentId: String(params.agent_id), percent: body.percent, actor })),
);
