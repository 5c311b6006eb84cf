import { ClaimBody, ReviewItem, ReviewParams } from "@/lib/reviews/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/reviews/[exception_id]/claim",
  auth: "console",
  responses: { 200: ReviewItem },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    "approval_not_found",
    "approval_claimed",
    "invalid_state_transition",
  ],
  params: ReviewParams,
  body: ClaimBody,
});
