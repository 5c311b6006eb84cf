import { withMember } from "@/lib/http/member";
import { listConsoleApprovals } from "@/lib/runs/approvals";
import { loadOrgRun } from "@/lib/runs/service";
import * as contract from "./contract";

/** The run's open approvals (with their claims) and its latest decisions. */
export const GET = withMember(contract.GET, async ({ organizationId, params }) => {
  const run = await loadOrgRun(organizationId, params.run_id);
  return listConsoleApprovals({ agent: run.agent, runId: run.id });
});
