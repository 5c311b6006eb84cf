import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { DecideBody, ReviewParams } from "@/lib/reviews/schemas";
import { ResolveResult } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/reviews/[exception_id]/resolve",
  auth: "member",
  params: ReviewParams,
  body: DecideBody,
  responses: { 200: ResolveResult },
  errors: [
    ...USER_ERRORS,
    ...JSON_BODY_ERRORS,
    "approval_not_found",
    "approval_claimed",
    "run_not_found",
    "invalid_resolution",
    "invalid_state_transition",
  ],
  openapi: () => ({
    operationId: "resolveReview",
    summary: "Decide an item",
    tag: TAG.reviews,
    description:
      "Every member. `approved`, `modified` (with `modified_data` as the item) or `rejected` (with a `reason`). " +
      "An item another member holds is `409 approval_claimed` unless `take_over`. When it was its run's last " +
      "open approval, the run resumes (`resumed: true`).",
    bodyExamples: {
      approve: { summary: "Approve", value: { resolution: "approved" } },
      reject: { summary: "Reject", value: { resolution: "rejected", reason: "duplicate order" } },
    },
    responses: {
      "200": {
        description: "Decided.",
        examples: {
          resolved: { summary: "The last one", value: { ...ex.resolveResult, resolved_by: "ada@example.com" } },
        },
      },
    },
  }),
});
