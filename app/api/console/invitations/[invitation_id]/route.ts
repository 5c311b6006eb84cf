import { withConsole } from "@/lib/http/console";
import { revokeInvitation } from "@/lib/orgs/invitations";
import * as contract from "./contract";

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  revokeInvitation({ organizationId, invitationId: String(params.invitation_id), actor }),
);
