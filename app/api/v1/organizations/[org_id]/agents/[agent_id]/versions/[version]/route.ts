import { getVersion } from "@/lib/agents/versions";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, async ({ organizationId, params }) =>
  getVersion({ organizationId, agentId: params.agent_id, version: params.version }),
);
