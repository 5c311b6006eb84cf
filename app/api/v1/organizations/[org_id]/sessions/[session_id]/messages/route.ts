import { listOrgMessages } from "@/lib/conversations/sessions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params, query }) =>
  listOrgMessages({ organizationId, sessionId: String(params.session_id), ...query }),
);
