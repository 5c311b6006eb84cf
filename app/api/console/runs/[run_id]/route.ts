import { withConsole } from "@/lib/http/console";
import { ConsoleRunParams } from "@/lib/runs/schemas";
import { getOrgRun } from "@/lib/runs/service";

export const GET = withConsole({ params: ConsoleRunParams }, ({ organizationId, params, baseUrl }) =>
  getOrgRun({ organizationId, runId: params.run_id, baseUrl }),
);
