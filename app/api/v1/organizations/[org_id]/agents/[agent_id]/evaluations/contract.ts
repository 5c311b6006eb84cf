import * as ex from "@/lib/openapi/examples";
import {
  CreateEvaluationBody,
  EvaluationDryRun,
  EvaluationList,
  EvaluationListQuery,
  EvaluationRecord,
} from "@/lib/evaluations/schemas";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  body: CreateEvaluationBody,
  responses: { 200: EvaluationDryRun, 201: EvaluationRecord },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "agent_not_found",
    "agent_archived",
    "invalid_agent_version",
    "invalid_check",
    "empty_source",
    "invalid_status",
    "too_many_evaluations",
  ],
  openapi: () => ({
    operationId: "createEvaluation",
    summary: "Evaluate a version on real traffic",
    tag: "Evaluations",
    description:
      "Admin only. Replays a slice of the agent's real sessions (conversational agents: the last user turn with " +
      "its recorded history, or every turn with the history the version itself produces: `source.turns`) or runs " +
      "(workflows: the first 100 items of each, through the version's steps) against `candidate`, beside " +
      "`baseline`: what production answered at the time (`recorded`) or another version replayed the same way. " +
      "Nothing production reads is written: no session, message, run, callback, alert, usage figure or export " +
      "sees a replay. Workflow `http` steps answer what they answered in the original run (a step with nothing " +
      "recorded leaves its item `skipped_no_recording`) unless `live_calls` is true; model calls are real and " +
      "count against `budget` (the evaluation stops, `stopped` with `stop_reason`, at the first case after it is " +
      "reached). `checks` run on every case (a failing check fails the case, never the evaluation). " +
      "`dry_run: true` answers the number of cases, the calls and the estimated tokens and cost, and makes " +
      "nothing. The organization may have `EVALUATIONS_PER_ORG` queued or running (`429 too_many_evaluations`).",
    bodyExamples: {
      draft: {
        summary: "The draft on the last 50 closed sessions",
        value: {
          candidate: "draft",
          source: { kind: "sessions", filters: { status: "closed" }, limit: 50 },
          checks: [{ kind: "expression", name: "mentions the order", expression: '$contains(output, "order")' }],
          budget: { max_cost_usd: 1 },
        },
      },
      dryRun: {
        summary: "What it would cost",
        value: { candidate: "draft", source: { kind: "sessions", limit: 50 }, dry_run: true },
      },
    },
    responses: {
      "200": {
        description: "The dry run's figures.",
        examples: { dryRun: { summary: "50 sessions", value: ex.evaluationDryRun } },
      },
      "201": {
        description: "The evaluation, queued.",
        examples: { evaluation: { summary: "An evaluation", value: { ...ex.evaluationRecord, status: "queued" } } },
      },
    },
  }),
});

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations",
  auth: "member",
  params: OrgAgentParams,
  query: EvaluationListQuery,
  responses: { 200: EvaluationList },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found"],
  openapi: () => ({
    operationId: "listEvaluations",
    summary: "List an agent's evaluations",
    tag: "Evaluations",
    description: "Newest first, a page at a time (docs/api.md, Paging).",
    responses: {
      "200": {
        description: "The evaluations.",
        examples: {
          evaluations: {
            summary: "One evaluation",
            value: { evaluations: [ex.evaluationRecord], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});
