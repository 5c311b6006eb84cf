import { archiveAgent, getAgent } from "@/lib/agents/service";
import { updateAgent } from "@/lib/agents/versions";
import { agentWithEtag } from "@/app/api/v1/organizations/[org_id]/agents/[agent_id]/etag";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params }) =>
  agentWithEtag(await getAgent({ organizationId, agentId: String(params.agent_id) })),
);

export const PATCH = withMember(contract.PATCH, async ({ organizationId, actor, params, body, req }) =>
  agentWithEtag(
    await updateAgent({
      organizationId,
      agentId: String(params.agent_id),
      input: body,
      ifMatch: req.headers.get("if-match"),
      actor,
    }),
  ),
);

/** Archives the agent (no new triggers or uploads; its data stays readable). Idempotent. */
export const DELETE = withMember(contract.DELETE, async ({ organizationId, actor, params }) =>
  archiveAgent({ organizationId, agentId: String(params.agent_id), actor }),
);
