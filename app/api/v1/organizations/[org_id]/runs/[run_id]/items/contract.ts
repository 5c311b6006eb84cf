import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, runItem } from "@/lib/openapi/org-work";
import { OrgRunParams, RunItemPage, RunItemsQuery } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]/items",
  auth: "member",
  params: OrgRunParams,
  query: RunItemsQuery,
  responses: { 200: RunItemPage },
  errors: [...USER_ERRORS, "invalid_request", "invalid_status", "run_not_found"],
  openapi: () => ({
    operationId: "listOrganizationRunItems",
    summary: "List a run's items",
    tag: TAG.runs,
    description:
      "Every member. The run's items in index order, each with its data, result, error and its way through the " +
      "steps (`timeline`). A page at a time: `next_cursor` (null on the last page) passed as `cursor`, with the " +
      "same `status`, answers the next page.",
    responses: {
      "200": {
        description: "The items.",
        examples: {
          items: {
            summary: "An item waiting for review",
            value: { items: [runItem], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});
