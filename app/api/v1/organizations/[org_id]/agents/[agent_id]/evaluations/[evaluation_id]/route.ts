import { getEvaluation } from "@/lib/evaluations/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getEvaluation({ organizationId, agentId: params.agent_id, evaluationId: params.evaluation_id }),
);
