import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, reviewItem } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { ClaimBody, ReviewItem, ReviewParams } from "@/lib/reviews/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/reviews/[exception_id]/claim",
  auth: "member",
  params: ReviewParams,
  body: ClaimBody,
  responses: { 200: ReviewItem },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "approval_not_found", "approval_claimed", "invalid_state_transition"],
  openapi: () => ({
    operationId: "claimReview",
    summary: "Claim an item for review",
    tag: TAG.reviews,
    description:
      "Every member. Holds the item for the caller for 15 minutes (claiming it again renews the hold), so that " +
      "two people do not decide it at once. An item another member holds is `409 approval_claimed` unless " +
      "`take_over` (written to the audit log). An item decided already, or whose run no longer waits, is " +
      "`404 approval_not_found` or `409 invalid_state_transition`.",
    bodyExamples: {
      claim: { summary: "Claim it", value: { take_over: false } },
    },
    responses: {
      "200": { description: "The item, claimed.", examples: { claimed: { summary: "Claimed", value: reviewItem } } },
    },
  }),
});
