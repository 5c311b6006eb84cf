import { restoreVersion } from "@/lib/agents/versions";
import { withMember } from "@/lib/http/member";
import { agentWithEtag } from "@/app/api/v1/organizations/[org_id]/agents/[agent_id]/etag";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body, req }) =>
  agentWithEtag(
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
