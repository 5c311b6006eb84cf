import { DecideBody, ReviewParams } from "@/lib/reviews/schemas";
import { ResolveResult } from "@/lib/runs/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/reviews/[exception_id]/resolve",
  auth: "console",
  responses: { 200: ResolveResult },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    "approval_not_found",
    "approval_claimed",
    "run_not_found",
    "invalid_resolution",
    "invalid_state_transition",
  ],
  params: ReviewParams,
  body: DecideBody,
});
