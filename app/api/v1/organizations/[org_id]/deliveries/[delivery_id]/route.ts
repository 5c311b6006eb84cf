import { getDelivery } from "@/lib/callbacks/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getDelivery(organizationId, params.delivery_id),
);
