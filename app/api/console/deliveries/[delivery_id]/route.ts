import { getDelivery } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  getDelivery(organizationId, params.delivery_id),
);
