import { getOrgSession } from "@/lib/conversations/sessions";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getOrgSession({ organizationId, sessionId: String(params.session_id) }),
);
