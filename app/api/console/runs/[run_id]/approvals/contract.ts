import { ConsoleApprovalList, ConsoleRunParams } from "@/lib/runs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/runs/[run_id]/approvals",
  auth: "console",
  responses: { 200: ConsoleApprovalList },
  errors: [...CONSOLE_ERRORS, "run_not_found"],
  params: ConsoleRunParams,
});
