import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { TAG, deliverySummary } from "@/lib/openapi/org-work";
import { DeliveryParams, DeliverySummary } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/deliveries/[delivery_id]/redeliver",
  auth: "member",
  admin: true,
  params: DeliveryParams,
  responses: { 202: DeliverySummary },
  errors: [...ADMIN_ERRORS, "invalid_request", "delivery_not_found"],
  openapi: () => ({
    operationId: "redeliverDelivery",
    summary: "Send a delivery again",
    tag: TAG.deliveries,
    description:
      "Admin only. The same request is sent again at once, with a new round of retries; its attempts so far " +
      "stay in its history. Written to the audit log (`callback_delivery.redelivered`).",
    responses: {
      "202": {
        description: "Queued again.",
        examples: {
          queued: {
            summary: "Pending again",
            value: {
              ...deliverySummary,
              status: "pending",
              next_attempt_at: deliverySummary.created_at,
              delivered_at: null,
            },
          },
        },
      },
    },
  }),
});
