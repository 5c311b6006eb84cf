import { ConsoleResolveBody, ConsoleRunParams, ResolveResult } from "@/lib/runs/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/runs/[run_id]/approvals/resolve",
  auth: "console",
  responses: { 200: ResolveResult },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_resolution",
    "run_not_found",
    "approval_not_found",
    "invalid_state_transition",
    "approval_claimed",
  ],
  params: ConsoleRunParams,
  body: ConsoleResolveBody,
});
