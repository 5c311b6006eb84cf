import { diffVersions } from "@/lib/agents/versions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params, query }) =>
  diffVersions({ organizationId, agentId: params.agent_id, from: params.version, to: query.to }),
);
