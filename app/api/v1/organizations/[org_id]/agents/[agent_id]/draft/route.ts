import { discardDraft } from "@/lib/agents/versions";
import { agentWithEtag } from "@/app/api/v1/organizations/[org_id]/agents/[agent_id]/etag";
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
