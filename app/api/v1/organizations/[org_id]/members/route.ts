import { withMember } from "@/lib/http/member";
import { listMembers } from "@/lib/orgs/members";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) => listMembers({ organizationId, ...query }));
