import { DeliveryParams, DeliverySummary } from "@/lib/callbacks/schemas";
import { CONSOLE_ADMIN_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/deliveries/[delivery_id]/redeliver",
  auth: "console",
  responses: { 202: DeliverySummary },
  errors: [...CONSOLE_ADMIN_ERRORS, "delivery_not_found"],
  params: DeliveryParams,
  admin: true,
});
