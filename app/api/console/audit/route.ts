import { listAuditEvents } from "@/lib/audit";
import { withConsole } from "@/lib/http/console";
import { AuditQuery } from "@/lib/orgs/schemas";

export const GET = withConsole({ query: AuditQuery, admin: true }, ({ organizationId, query }) =>
  listAuditEvents({ organizationId, ...query }),
);
