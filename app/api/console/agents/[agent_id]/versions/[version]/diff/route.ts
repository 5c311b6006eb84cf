import { diffVersions } from "@/lib/agents/versions";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, query }) =>
  diffVersions({ organizationId, agentId: params.agent_id, from: params.version, to: query.to }),
);
