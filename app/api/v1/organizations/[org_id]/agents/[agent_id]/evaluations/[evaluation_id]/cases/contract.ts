import * as ex from "@/lib/openapi/examples";
import { EvaluationCaseList, EvaluationCasesQuery, EvaluationParams } from "@/lib/evaluations/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases",
  auth: "member",
  params: EvaluationParams,
  query: EvaluationCasesQuery,
  responses: { 200: EvaluationCaseList },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "evaluation_not_found"],
  openapi: () => ({
    operationId: "listEvaluationCases",
    summary: "List an evaluation's cases",
    tag: "Evaluations",
    description:
      "In replay order, a page at a time: each case's input, both sides' outputs, errors, latency, tokens and " +
      "cost, the text diff from the baseline's output to the candidate's, each check's result and a person's verdict.",
    responses: {
      "200": {
        description: "The cases.",
        examples: {
          cases: { summary: "One case", value: { cases: [ex.evaluationCase], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});
