import { DeliveryList, DeliveryListQuery } from "@/lib/callbacks/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/deliveries",
  auth: "console",
  responses: { 200: DeliveryList },
  errors: [...CONSOLE_ERRORS],
  query: DeliveryListQuery,
});
