import * as ex from "@/lib/openapi/examples";
import { EvaluationCaseParams, EvaluationCaseRecord, VerdictBody } from "@/lib/evaluations/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const PUT = route({
  method: "PUT",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/verdict",
  auth: "member",
  params: EvaluationCaseParams,
  body: VerdictBody,
  responses: { 200: EvaluationCaseRecord },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "agent_not_found", "evaluation_not_found", "evaluation_case_not_found"],
  openapi: () => ({
    operationId: "judgeEvaluationCase",
    summary: "Judge a case",
    tag: "Evaluations",
    description:
      "Any member (support too): the candidate's answer is `better`, the `same` or `worse` than the baseline's, " +
      "with an optional note; `null` clears it. Audited; the evaluation's `verdicts` count them.",
    bodyExamples: {
      better: { summary: "Better", value: { verdict: "better", note: "Gives the delivery day" } },
    },
    responses: {
      "200": { description: "The case.", examples: { case: { summary: "Judged", value: ex.evaluationCase } } },
    },
  }),
});
