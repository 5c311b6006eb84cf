import { discardDraft } from "@/lib/agents/versions";
import { agentWithEtag } from "@/lib/http/agent-routes";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const DELETE = withMember(contract.DELETE, async ({ organizationId, actor, params, req }) =>
  agentWithEtag(
    await discardDraft({
      organizationId,
      agentId: String(params.agent_id),
      ifMatch: req.headers.get("if-match"),
      actor,
    }),
  ),
);
