import { DeliveryParams } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/deliveries/[delivery_id]/redeliver",
  auth: "console",
  params: DeliveryParams,
  admin: true,
});
