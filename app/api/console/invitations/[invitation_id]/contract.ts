import { RevokedInvitation } from "@/lib/orgs/schemas";
import { CONSOLE_ADMIN_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/invitations/[invitation_id]",
  auth: "console",
  responses: { 200: RevokedInvitation },
  errors: [...CONSOLE_ADMIN_ERRORS, "invitation_not_found"],
  admin: true,
});
