import { cancelEvaluation } from "@/lib/evaluations/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, ({ organizationId, actor, params }) =>
  cancelEvaluation({ organizationId, agentId: params.agent_id, evaluationId: params.evaluation_id, actor }),
);
