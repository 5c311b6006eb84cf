import { withConsole } from "@/lib/http/console";
import { listOrgRuns } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listOrgRuns({ organizationId, agentId: query.agent_id, ...query }),
);
