import { withMember } from "@/lib/http/member";
import { usageReport } from "@/lib/usage/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) => usageReport({ organizationId, query }));
