import { withConsole } from "@/lib/http/console";
import { listApprovals } from "@/lib/runs/approvals";
import { ConsoleRunParams } from "@/lib/runs/schemas";
import { loadOrgRun } from "@/lib/runs/service";

export const GET = withConsole({ params: ConsoleRunParams }, async ({ organizationId, params }) => {
  const run = await loadOrgRun(organizationId, params.run_id);
  return { approvals: await listApprovals({ agent: run.agent, runId: run.id }) };
});
