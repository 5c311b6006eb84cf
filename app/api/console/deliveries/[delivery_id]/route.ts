import { DeliveryParams } from "@/lib/callbacks/schemas";
import { getDelivery } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({ params: DeliveryParams }, ({ organizationId, params }) =>
  getDelivery(organizationId, params.delivery_id),
);
