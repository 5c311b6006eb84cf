import { AuditPage, AuditQuery } from "@/lib/orgs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/audit",
  auth: "console",
  responses: { 200: AuditPage },
  errors: [...CONSOLE_ERRORS, "forbidden"],
  query: AuditQuery,
  admin: true,
});
