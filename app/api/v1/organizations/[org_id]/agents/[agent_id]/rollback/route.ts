import { rollback } from "@/lib/agents/versions";
import { agentWithEtag } from "@/app/api/v1/organizations/[org_id]/agents/[agent_id]/etag";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body }) =>
  agentWithEtag((await rollback({ organizationId, agentId: String(params.agent_id), actor, note: body.note }))!),
);
