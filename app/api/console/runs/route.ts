import { withConsole } from "@/lib/http/console";
import { OrgRunsQuery } from "@/lib/runs/schemas";
import { listOrgRuns } from "@/lib/runs/service";

export const GET = withConsole({ query: OrgRunsQuery }, ({ organizationId, query }) =>
  listOrgRuns({ organizationId, agentId: query.agent_id, ...query }),
);
