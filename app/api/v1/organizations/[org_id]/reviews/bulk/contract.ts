import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { BULK_MAX, BulkDecideBody, BulkDecideResult } from "@/lib/reviews/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/reviews/bulk",
  auth: "member",
  params: OrgParams,
  body: BulkDecideBody,
  responses: { 200: BulkDecideResult },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS],
  openapi: () => ({
    operationId: "resolveReviews",
    summary: "Decide many items",
    tag: TAG.reviews,
    description:
      `Every member. Up to ${BULK_MAX} items approved or rejected (with one \`reason\`), each as \`resolveReview\` ` +
      "decides it: one item's refusal (held by another member, decided already) does not stop the others. Each " +
      "item's outcome is in `results` (`decided`, `skipped` or `failed`, with the refusal's code and message).",
    bodyExamples: {
      approve: {
        summary: "Approve two",
        value: { exception_ids: [ex.ID.exception, "exc_0VdXk4Pq6Rs7Tu8Vw9Xy1a"], resolution: "approved" },
      },
    },
    responses: {
      "200": {
        description: "Each item's outcome.",
        examples: {
          outcomes: {
            summary: "One decided, one held by another member",
            value: {
              results: [
                { exception_id: ex.ID.exception, outcome: "decided", code: null, message: null },
                {
                  exception_id: "exc_0VdXk4Pq6Rs7Tu8Vw9Xy1a",
                  outcome: "skipped",
                  code: "approval_claimed",
                  message: "grace@example.com is deciding this item.",
                },
              ],
              decided: 1,
              skipped: 1,
              failed: 0,
            },
          },
        },
      },
    },
  }),
});
