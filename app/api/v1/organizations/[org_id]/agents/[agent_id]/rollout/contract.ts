import * as ex from "@/lib/openapi/examples";
import { AgentRecord, RolloutBody, RolloutReport } from "@/lib/agents/schemas";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/rollout",
  auth: "member",
  params: OrgAgentParams,
  responses: { 200: RolloutReport },
  errors: [...USER_ERRORS, "agent_not_found"],
  openapi: () => ({
    operationId: "getAgentRollout",
    summary: "Follow a rollout",
    tag: "Agent versions",
    description:
      "The canary rollout in progress and both versions side by side since it started: triggers, replies and " +
      "runs, error rate, reply latency p50/p95 (from the usage rollups' histogram), tokens and cost. " +
      "`rollout: null` and no figures when none is on.",
    responses: {
      "200": { description: "The rollout.", examples: { canary: { summary: "10 % canary", value: ex.rolloutReport } } },
    },
  }),
});

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/rollout",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  body: RolloutBody,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "agent_not_found", "no_rollout"],
  openapi: () => ({
    operationId: "changeAgentRollout",
    summary: "Change a rollout's share",
    tag: "Agent versions",
    description:
      "Admin only. The canary's share of new sessions and runs (1-100); 100 completes the rollout: the new " +
      "version becomes the published one. No rollout in progress: `409 no_rollout`.",
    bodyExamples: {
      half: { summary: "Half of the traffic", value: { percent: 50 } },
      complete: { summary: "Complete the rollout", value: { percent: 100 } },
    },
    responses: {
      "200": {
        description: "The agent.",
        examples: {
          half: { summary: "At 50 %", value: { ...ex.agentRecord, rollout: { ...ex.rolloutRecord, percent: 50 } } },
        },
      },
    },
  }),
});
