import { withMember } from "@/lib/http/member";
import { HttpAnswer } from "@/lib/http/handler";
import { rerunRun } from "@/lib/workflow/rerun";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, params, body, baseUrl }) =>
    new HttpAnswer(await rerunRun({ organizationId, runId: params.run_id, inputs: body.inputs, actor, baseUrl }), 201),
);
