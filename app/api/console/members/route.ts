// Members are listed here; people join through invitations (../invitations), never by being added.
import { withConsole } from "@/lib/http/console";
import { listMembers } from "@/lib/orgs/members";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, async ({ organizationId }) => ({
  members: await listMembers({ organizationId }),
}));
