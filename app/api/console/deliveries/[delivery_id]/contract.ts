import { DeliveryParams } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/deliveries/[delivery_id]",
  auth: "console",
  params: DeliveryParams,
});
