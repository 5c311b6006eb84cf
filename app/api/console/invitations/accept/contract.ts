import { AcceptInvitationBody, AcceptedInvitation } from "@/lib/orgs/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/invitations/accept",
  auth: "consoleOpen",
  responses: { 200: AcceptedInvitation },
  errors: [
    ...CONSOLE_WRITE_ERRORS.filter((c) => c !== "unauthorized"),
    ...JSON_BODY_ERRORS,
    "invitation_not_found",
    "invitation_expired",
    "invitation_email_mismatch",
    "account_exists",
    "conflict",
    "rate_limited",
  ],
  body: AcceptInvitationBody,
});
