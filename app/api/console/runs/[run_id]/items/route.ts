import { withConsole } from "@/lib/http/console";
import { listRunItems } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, query }) =>
  listRunItems({ organizationId, runId: params.run_id, ...query }),
);
