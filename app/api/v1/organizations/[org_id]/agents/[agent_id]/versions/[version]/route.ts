import { getVersion } from "@/lib/agents/versions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params }) =>
  getVersion({ organizationId, agentId: params.agent_id, version: params.version }),
);
