import { createEvaluation, listEvaluations } from "@/lib/evaluations/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body }) => {
  const made = await createEvaluation({ organizationId, agentId: String(params.agent_id), actor, body });
  return made.dryRun ? made.answer : new HttpAnswer(made.answer, 201);
});

export const GET = withMember(contract.GET, ({ organizationId, params, query }) =>
  listEvaluations({ organizationId, agentId: String(params.agent_id), ...query }),
);
