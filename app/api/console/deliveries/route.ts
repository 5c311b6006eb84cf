import { DeliveryListQuery } from "@/lib/callbacks/schemas";
import { listDeliveries } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({ query: DeliveryListQuery }, ({ organizationId, query }) =>
  listDeliveries(organizationId, query),
);
