import { listVersions } from "@/lib/agents/versions";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, async ({ organizationId, params, query }) =>
  listVersions({ organizationId, agentId: String(params.agent_id), limit: query.limit, cursor: query.cursor }),
);
