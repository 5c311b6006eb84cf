import { restoreVersion } from "@/lib/agents/versions";
import { agentReply } from "@/lib/http/agent-routes";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const POST = withConsole(contract.POST, async ({ organizationId, actor, params, body, req }) =>
  agentReply(
    await restoreVersion({
      organizationId,
      agentId: params.agent_id,
      version: params.version,
      input: body,
      ifMatch: req.headers.get("if-match"),
      actor,
    }),
  ),
);
