import { withConsole } from "@/lib/http/console";
import { ConsoleRunParams, RunItemsQuery } from "@/lib/runs/schemas";
import { listRunItems } from "@/lib/runs/service";

export const GET = withConsole(
  { params: ConsoleRunParams, query: RunItemsQuery },
  ({ organizationId, params, query }) => listRunItems({ organizationId, runId: params.run_id, ...query }),
);
