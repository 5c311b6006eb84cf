import { getBulkAction } from "@/lib/bulk/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  getBulkAction({ organizationId, id: params.bulk_action_id }),
);
