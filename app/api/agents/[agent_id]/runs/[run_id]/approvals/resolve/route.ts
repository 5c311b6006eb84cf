import { withAccessKey } from "@/lib/http/handler";
import { resolveApproval } from "@/lib/runs/approvals";
import * as contract from "./contract";

export const POST = withAccessKey(contract.POST, ({ agent, actor, params, body, baseUrl }) =>
  resolveApproval({
    agent,
    runId: params.run_id,
    exceptionId: body.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    reason: body.reason,
    actor,
    baseUrl,
  }),
);
