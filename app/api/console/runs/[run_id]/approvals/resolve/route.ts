import { withConsole } from "@/lib/http/console";
import { resolveApproval } from "@/lib/runs/approvals";
import { loadOrgRun } from "@/lib/runs/service";
import * as contract from "./contract";

export const POST = withConsole(contract.POST, async ({ organizationId, actor, params, body, baseUrl }) => {
  const run = await loadOrgRun(organizationId, params.run_id);
  return resolveApproval({
    agent: run.agent,
    runId: run.id,
    exceptionId: body.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    actor,
    baseUrl,
  });
});
