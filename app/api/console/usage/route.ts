import { withConsole } from "@/lib/http/console";
import { usageReport } from "@/lib/usage/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) => usageReport({ organizationId, query }));
