import { OrgSessionsQuery } from "@/lib/conversations/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/sessions",
  auth: "console",
  query: OrgSessionsQuery,
});
