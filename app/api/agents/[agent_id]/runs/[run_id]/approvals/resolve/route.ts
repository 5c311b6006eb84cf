import { baseUrl } from "@/lib/http/base-url";
import { withAccessKey } from "@/lib/http/handler";
import { resolveApproval } from "@/lib/runs/approvals";
import { ResolveBody, RunParams } from "@/lib/runs/schemas";
import { keyActor } from "@/lib/runs/service";

export const POST = withAccessKey({ params: RunParams, body: ResolveBody }, ({ req, key, agent, params, body }) =>
  resolveApproval({
    agent,
    runId: params.run_id,
    exceptionId: body.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    actor: keyActor(key),
    baseUrl: baseUrl(req),
  }),
);
