import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, reviewItem } from "@/lib/openapi/org-work";
import { ReviewPage, ReviewsQuery } from "@/lib/reviews/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/reviews",
  auth: "member",
  params: OrgParams,
  query: ReviewsQuery,
  responses: { 200: ReviewPage },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listReviews",
    summary: "List items waiting for review",
    tag: TAG.reviews,
    description:
      "Every member. The review inbox: the items of every agent's runs that wait for a person's decision, " +
      "longest-waiting first, each with its run, agent and claim (docs/console.md, Reviews). A page at a time: " +
      "`next_cursor` (null on the last page) passed as `cursor`, with the same filters, answers the next page.",
    responses: {
      "200": {
        description: "The items.",
        examples: {
          items: { summary: "One claimed item", value: { items: [reviewItem], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});
