import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, deliverySummary } from "@/lib/openapi/org-work";
import { DeliveryList, DeliveryListQuery } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/deliveries",
  auth: "member",
  params: OrgParams,
  query: DeliveryListQuery,
  responses: { 200: DeliveryList },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listDeliveries",
    summary: "List callback deliveries",
    tag: TAG.deliveries,
    description:
      "Every member. The completion callbacks and alert events the service sent or is sending, newest first, " +
      "with the console's filters (docs/console.md, List filters). A page at a time: `next_cursor` (null on the " +
      "last page) passed as `cursor`, with the same filters, answers the next page.",
    responses: {
      "200": {
        description: "The deliveries.",
        examples: {
          deliveries: {
            summary: "One delivered",
            value: { deliveries: [deliverySummary], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});
