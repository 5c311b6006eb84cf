import { judgeCase } from "@/lib/evaluations/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const PUT = withMember(contract.PUT, ({ organizationId, actor, params, body }) =>
  judgeCase({
    organizationId,
    agentId: params.agent_id,
    evaluationId: params.evaluation_id,
    caseId: params.case_id,
    actor,
    verdict: body.verdict,
    note: body.note,
  }),
);
