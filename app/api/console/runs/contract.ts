import { OrgRunsQuery } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/runs",
  auth: "console",
  query: OrgRunsQuery,
});
