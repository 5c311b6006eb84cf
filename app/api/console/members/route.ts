// Members are listed here; people join through invitations (../invitations), never by being added.
import { withConsole } from "@/lib/http/console";
import { listMembers } from "@/lib/orgs/members";

export const GET = withConsole({ admin: true }, async ({ organizationId }) => ({
  members: await listMembers({ organizationId }),
}));
