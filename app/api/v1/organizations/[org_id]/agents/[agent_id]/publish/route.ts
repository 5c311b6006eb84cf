import { publishDraft } from "@/lib/agents/versions";
import { publishReply } from "@/lib/http/agent-routes";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body }) =>
  publishReply(await publishDraft({ organizationId, agentId: String(params.agent_id), input: body, actor })),
);
