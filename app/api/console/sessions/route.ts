import { OrgSessionsQuery } from "@/lib/conversations/schemas";
import { listOrgSessions } from "@/lib/conversations/sessions";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({ query: OrgSessionsQuery }, ({ organizationId, query }) =>
  listOrgSessions({ organizationId, agentId: query.agent_id, ...query }),
);
