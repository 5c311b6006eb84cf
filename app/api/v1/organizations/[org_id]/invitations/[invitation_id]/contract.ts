import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { RevokedInvitation, InvitationParams } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/invitations/[invitation_id]",
  auth: "member",
  params: InvitationParams,
  admin: true,
  responses: { 200: RevokedInvitation },
  errors: [...ADMIN_ERRORS, "invitation_not_found"],
  openapi: () => ({
    operationId: "revokeInvitation",
    summary: "Revoke an invitation",
    tag: "Members and invitations",
    description:
      "Admin only. Its link stops working. One already accepted, revoked or expired, or of another " +
      "organization, is `404 invitation_not_found`. Written to the audit log (`invitation.revoked`).",
    responses: {
      "200": {
        description: "The invitation is revoked.",
        examples: {
          revoked: { summary: "Revoked", value: { invitation_id: ex.invitationRecord.invitation_id, revoked: true } },
        },
      },
    },
  }),
});
