import { CreatedInvitation, InvitationPage, InvitationsQuery, InviteBody } from "@/lib/orgs/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/invitations",
  auth: "console",
  responses: { 200: InvitationPage },
  errors: [...CONSOLE_ERRORS, "forbidden"],
  query: InvitationsQuery,
  admin: true,
});

export const POST = route({
  method: "POST",
  path: "/api/console/invitations",
  auth: "console",
  responses: { 201: CreatedInvitation },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS, "conflict"],
  body: InviteBody,
  admin: true,
});
