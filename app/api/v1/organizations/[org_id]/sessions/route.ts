import { listOrgSessions } from "@/lib/conversations/sessions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listOrgSessions({
    organizationId,
    ...query,
    agentId: query.agent_id,
    userId: query.user_id,
    agentVersion: query.agent_version,
  }),
);
