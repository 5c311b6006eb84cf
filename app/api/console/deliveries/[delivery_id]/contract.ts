import { DeliveryDetail, DeliveryParams } from "@/lib/callbacks/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/deliveries/[delivery_id]",
  auth: "console",
  responses: { 200: DeliveryDetail },
  errors: [...CONSOLE_ERRORS, "delivery_not_found"],
  params: DeliveryParams,
});
