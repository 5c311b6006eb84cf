import { OrgSessionPage, OrgSessionsQuery } from "@/lib/conversations/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/sessions",
  auth: "console",
  responses: { 200: OrgSessionPage },
  errors: [...CONSOLE_ERRORS],
  query: OrgSessionsQuery,
});
