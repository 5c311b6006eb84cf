import { listOrgSessions } from "@/lib/conversations/sessions";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listOrgSessions({
    organizationId,
    ...query,
    agentId: query.agent_id,
    userId: query.user_id,
    agentVersion: query.agent_version,
  }),
);
