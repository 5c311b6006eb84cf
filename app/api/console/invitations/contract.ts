import { InvitationsQuery, InviteBody } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/invitations",
  auth: "console",
  query: InvitationsQuery,
  admin: true,
});

export const POST = route({
  method: "POST",
  path: "/api/console/invitations",
  auth: "console",
  body: InviteBody,
  admin: true,
});
