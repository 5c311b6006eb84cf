import { withAccessKey } from "@/lib/http/handler";
import { resolveApproval } from "@/lib/runs/approvals";
import { ResolveBody, RunParams } from "@/lib/runs/schemas";

export const POST = withAccessKey({ params: RunParams, body: ResolveBody }, ({ agent, actor, params, body, baseUrl }) =>
  resolveApproval({
    agent,
    runId: params.run_id,
    exceptionId: body.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    actor,
    baseUrl,
  }),
);
