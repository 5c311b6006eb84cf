import { diffVersions } from "@/lib/agents/versions";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, async ({ organizationId, params, query }) =>
  diffVersions({ organizationId, agentId: params.agent_id, from: params.version, to: query.to }),
);
