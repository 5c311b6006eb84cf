import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, deliveryDetail } from "@/lib/openapi/org-work";
import { DeliveryDetail, DeliveryParams } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/deliveries/[delivery_id]",
  auth: "member",
  params: DeliveryParams,
  responses: { 200: DeliveryDetail },
  errors: [...USER_ERRORS, "invalid_request", "delivery_not_found"],
  openapi: () => ({
    operationId: "getDelivery",
    summary: "Get a callback delivery",
    tag: TAG.deliveries,
    description:
      "Every member. A delivery with the exact request sent (headers and JSON body) and each attempt: when, " +
      "how long, the status code or error, and the first 2 KiB of the answer.",
    responses: {
      "200": {
        description: "The delivery.",
        examples: { delivered: { summary: "Delivered at once", value: deliveryDetail } },
      },
    },
  }),
});
