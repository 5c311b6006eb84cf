import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { createInvitation, listInvitations } from "@/lib/orgs/invitations";
import { InvitationsQuery, InviteBody } from "@/lib/orgs/schemas";

export const GET = withConsole({ query: InvitationsQuery, admin: true }, ({ organizationId, query }) =>
  listInvitations({ organizationId, ...query }),
);

export const POST = withConsole(
  { body: InviteBody, admin: true },
  async ({ organizationId, actor, body, baseUrl }) =>
    new Reply(await createInvitation({ organizationId, input: body, actor, baseUrl }), 201),
);
