import { AcceptInvitationBody } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/invitations/accept",
  auth: "consoleOpen",
  body: AcceptInvitationBody,
});
