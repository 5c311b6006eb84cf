import { ConsoleRunParams, OrgRunDetail } from "@/lib/runs/schemas";
import { CONSOLE_WRITE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/runs/[run_id]/pause",
  auth: "console",
  responses: { 200: OrgRunDetail },
  errors: [...CONSOLE_WRITE_ERRORS, "run_not_found", "invalid_state_transition"],
  params: ConsoleRunParams,
});
