import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { UsageQuery, UsageReport, USAGE_MAX_DAYS } from "@/lib/usage/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

const figures = {
  triggers: 1200,
  replies_completed: 1180,
  replies_failed: 20,
  error_rate: 0.016667,
  latency_p50_ms: 905,
  latency_p95_ms: 2560,
  runs_started: 40,
  runs_completed: 36,
  runs_failed: 2,
  runs_cancelled: 1,
  runs_needs_review: 1,
  prompt_tokens: 480000,
  completion_tokens: 120000,
  cost: 1.92,
  uploads: 12,
  upload_bytes: 5242880,
  evaluation_cases: 200,
  evaluation_tokens: 64000,
  evaluation_cost: 0.25,
};

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/usage",
  auth: "member",
  params: OrgParams,
  query: UsageQuery,
  responses: { 200: UsageReport },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "getUsage",
    summary: "Usage over a range of hours",
    tag: "Usage",
    description:
      "The organization's figures (triggers, replies completed and failed, reply latency p50/p95, runs started " +
      "and ended by status, tokens, cost, uploads) from the hourly rollups, and, counted apart, evaluation usage " +
      "(`evaluation_cases`, `evaluation_tokens`, `evaluation_cost`: cases replayed by evaluations, which none of the " +
      "other figures includes), for scripts and billing. Hours are " +
      `UTC; \`from\` is rounded down to its hour; the range is at most ${USAGE_MAX_DAYS} days. Latency ` +
      "percentiles are the upper bound of a fixed log-spaced histogram bucket (at most about 41 % above the " +
      "truth). `group_by=hour` and `day` answer every hour or day of the range, zeros included; `agent` and " +
      "`key` answer the agents and keys with usage (`key` '' is work without a key: the console, recovered " +
      "replies, run ends).",
    responses: {
      "200": {
        description: "The figures: totals and one entry per group.",
        examples: {
          agents: {
            summary: "A day, by agent",
            value: {
              from: "2026-11-24T22:00:00.000Z",
              to: "2026-11-25T22:00:00.000Z",
              group_by: "agent",
              agent_id: null,
              key_id: null,
              totals: figures,
              groups: [{ group: ex.ID.agent, ...figures }],
            },
          },
        },
      },
    },
  }),
});
