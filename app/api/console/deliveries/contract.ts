import { DeliveryListQuery } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/deliveries",
  auth: "console",
  query: DeliveryListQuery,
});
