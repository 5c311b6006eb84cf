import { listVersions } from "@/lib/agents/versions";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, query }) =>
  listVersions({ organizationId, agentId: String(params.agent_id), limit: query.limit, cursor: query.cursor }),
);
