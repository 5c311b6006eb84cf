import { withMember } from "@/lib/http/member";
import { listOrgRuns } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listOrgRuns({
    organizationId,
    ...query,
    agentId: query.agent_id,
    userId: query.user_id,
    hasError: query.has_error,
    agentVersion: query.agent_version,
  }),
);
