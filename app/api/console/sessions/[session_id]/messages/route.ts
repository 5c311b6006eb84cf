import { OrgMessagesQuery } from "@/lib/conversations/schemas";
import { listOrgMessages } from "@/lib/conversations/sessions";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({ query: OrgMessagesQuery }, ({ organizationId, params, query }) =>
  listOrgMessages({ organizationId, sessionId: String(params.session_id), ...query }),
);
