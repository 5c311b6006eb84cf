import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { createInvitation, listInvitations } from "@/lib/orgs/invitations";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listInvitations({ organizationId, ...query }),
);

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, body, baseUrl }) =>
    new Reply(await createInvitation({ organizationId, input: body, actor, baseUrl }), 201),
);
