import { withMember } from "@/lib/http/member";
import { revokeInvitation } from "@/lib/orgs/invitations";
import * as contract from "./contract";

export const DELETE = withMember(contract.DELETE, ({ organizationId, actor, params }) =>
  revokeInvitation({ organizationId, invitationId: String(params.invitation_id), actor }),
);
