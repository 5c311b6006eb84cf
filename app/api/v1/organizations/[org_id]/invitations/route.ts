import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import { createInvitation, listInvitations } from "@/lib/orgs/invitations";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listInvitations({ organizationId, ...query }),
);

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, body, baseUrl }) =>
    new HttpAnswer(await createInvitation({ organizationId, input: body, actor, baseUrl }), 201),
);
