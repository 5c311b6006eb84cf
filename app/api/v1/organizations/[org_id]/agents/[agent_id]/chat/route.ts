// The test console's chat: the same trigger as the public API, in a draft session.
import { loadAgentForKey } from "@/lib/agents/service";
import { converseInConsole } from "@/lib/conversations/trigger";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, params, body, baseUrl }) =>
  converseInConsole({ agent: await loadAgentForKey(organizationId, String(params.agent_id)), body, baseUrl }),
);
