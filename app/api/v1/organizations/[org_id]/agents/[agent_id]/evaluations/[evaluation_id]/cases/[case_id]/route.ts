import { getCase } from "@/lib/evaluations/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getCase({ organizationId, agentId: params.agent_id, evaluationId: params.evaluation_id, caseId: params.case_id }),
);
