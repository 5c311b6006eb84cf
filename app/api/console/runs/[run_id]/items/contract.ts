import { ConsoleRunParams, RunItemPage, RunItemsQuery } from "@/lib/runs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/runs/[run_id]/items",
  auth: "console",
  responses: { 200: RunItemPage },
  errors: [...CONSOLE_ERRORS, "invalid_status", "run_not_found"],
  params: ConsoleRunParams,
  query: RunItemsQuery,
});
