import { withConsole } from "@/lib/http/console";
import { revokeInvitation } from "@/lib/orgs/invitations";

export const DELETE = withConsole({ admin: true }, ({ organizationId, actor, params }) =>
  revokeInvitation({ organizationId, invitationId: String(params.invitation_id), actor }),
);
