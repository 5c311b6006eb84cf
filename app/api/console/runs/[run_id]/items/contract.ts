import { ConsoleRunParams, RunItemsQuery } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/runs/[run_id]/items",
  auth: "console",
  params: ConsoleRunParams,
  query: RunItemsQuery,
});
