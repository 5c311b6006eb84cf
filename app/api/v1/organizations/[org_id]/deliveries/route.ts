import { listDeliveries } from "@/lib/callbacks/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) => listDeliveries(organizationId, query));
