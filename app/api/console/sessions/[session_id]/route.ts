import { getOrgSession } from "@/lib/conversations/sessions";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({}, ({ organizationId, params }) =>
  getOrgSession({ organizationId, sessionId: String(params.session_id) }),
);
