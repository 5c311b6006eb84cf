import { withMember } from "@/lib/http/member";
import { overview } from "@/lib/orgs/overview";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId }) => overview({ organizationId }));
