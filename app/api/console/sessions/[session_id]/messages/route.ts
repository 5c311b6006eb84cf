import { listOrgMessages } from "@/lib/conversations/sessions";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, query }) =>
  listOrgMessages({ organizationId, sessionId: String(params.session_id), ...query }),
);
