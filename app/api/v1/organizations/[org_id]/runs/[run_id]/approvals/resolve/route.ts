import { withMember } from "@/lib/http/member";
import { resolveApproval } from "@/lib/runs/approvals";
import { loadOrgRun } from "@/lib/runs/service";
import { requireReason } from "@/lib/reviews/service";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, user, actor, params, body, baseUrl }) => {
  requireReason(body.resolution, body.reason);
  const run = await loadOrgRun(organizationId, params.run_id);
  return resolveApproval({
    agent: run.agent,
    runId: run.id,
    exceptionId: body.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    reason: body.reason,
    actor,
    claimant: { userId: user.userId, takeOver: body.take_over },
    baseUrl,
  });
});
