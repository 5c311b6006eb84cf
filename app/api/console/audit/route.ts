import { listAuditEvents } from "@/lib/audit";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listAuditEvents({ organizationId, ...query }),
);
