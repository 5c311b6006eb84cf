import { ORG_ID, USER_ERRORS } from "@/lib/openapi/management";
import { TAG, reviewItem } from "@/lib/openapi/org-work";
import { ReviewPage, ReviewsQuery } from "@/lib/reviews/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/reviews",
  auth: "member",
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
    parameters: [ORG_ID],
    queryDocs: {
      agent_id: "Only this agent's items (`agt_...`).",
      from: "Only items waiting since this instant or later.",
      to: "Only items waiting since before this instant.",
      claimed: "`claimed`: only items a member holds now; `unclaimed`: the others.",
    },
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
