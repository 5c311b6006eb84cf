import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { addMember, listMembers } from "@/lib/orgs/members";
import { AddMemberBody } from "@/lib/orgs/schemas";

export const GET = withConsole({ admin: true }, async ({ organizationId }) => ({
  members: await listMembers({ organizationId }),
}));

export const POST = withConsole(
  { body: AddMemberBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await addMember({ organizationId, input: body, actor }), 201),
);
