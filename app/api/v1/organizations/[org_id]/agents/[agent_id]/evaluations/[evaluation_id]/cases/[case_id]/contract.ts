import * as ex from "@/lib/openapi/examples";
import { EvaluationCaseParams, EvaluationCaseRecord } from "@/lib/evaluations/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]",
  auth: "member",
  params: EvaluationCaseParams,
  responses: { 200: EvaluationCaseRecord },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "evaluation_not_found", "evaluation_case_not_found"],
  openapi: () => ({
    operationId: "getEvaluationCase",
    summary: "Get an evaluation case",
    tag: "Evaluations",
    responses: {
      "200": { description: "The case.", examples: { case: { summary: "A case", value: ex.evaluationCase } } },
    },
  }),
});
