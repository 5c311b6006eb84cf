import { withConsole } from "@/lib/http/console";
import { getOrgRun } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, baseUrl }) =>
  getOrgRun({ organizationId, runId: params.run_id, baseUrl }),
);
