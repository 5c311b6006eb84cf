import * as ex from "@/lib/openapi/examples";
import { EvaluationCaseList, EvaluationCasesQuery, EvaluationParams } from "@/lib/evaluations/schemas";
import { ORG_ID, USER_ERRORS } from "@/lib/openapi/management";
import { AGENT_ID, EVALUATION_ID } from "@/lib/openapi/parts";
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
    parameters: [ORG_ID, AGENT_ID, EVALUATION_ID],
    queryDocs: {
      outcome: "Only cases of this outcome: `passed`, `failed`, `errored` or `skipped`.",
      changed: "`true`: only cases whose candidate output differs from the baseline's; `false`: only the others.",
    },
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
