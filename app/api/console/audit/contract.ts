import { AuditQuery } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/audit",
  auth: "console",
  query: AuditQuery,
  admin: true,
});
