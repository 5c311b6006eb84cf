import { changeRollout, rolloutReport } from "@/lib/agents/versions";
import { agentWithEtag } from "@/app/api/v1/organizations/[org_id]/agents/[agent_id]/etag";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params }) =>
  rolloutReport({ organizationId, agentId: String(params.agent_id) }),
);

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body }) =>
  agentWithEtag(
    await changeRollout({ organizationId, agentId: String(params.agent_id), percent: body.percent, actor }),
  ),
);
