import { getBulkAction } from "@/lib/bulk/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getBulkAction({ organizationId, id: params.bulk_action_id }),
);
