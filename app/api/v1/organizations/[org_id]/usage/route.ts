import { withUserToken } from "@/lib/http/handler";
import { usageReport } from "@/lib/usage/service";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, query }) => usageReport({ organizationId, query }));
