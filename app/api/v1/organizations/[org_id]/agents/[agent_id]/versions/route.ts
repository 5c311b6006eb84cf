import { listVersions } from "@/lib/agents/versions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params, query }) =>
  listVersions({ organizationId, agentId: String(params.agent_id), limit: query.limit, cursor: query.cursor }),
);
