import { OrgRunPage, OrgRunsQuery } from "@/lib/runs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/runs",
  auth: "console",
  responses: { 200: OrgRunPage },
  errors: [...CONSOLE_ERRORS, "invalid_status"],
  query: OrgRunsQuery,
});
