import { listAuditEvents } from "@/lib/audit";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listAuditEvents({ organizationId, ...query }),
);
