import { getVersion } from "@/lib/agents/versions";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  getVersion({ organizationId, agentId: params.agent_id, version: params.version }),
);
