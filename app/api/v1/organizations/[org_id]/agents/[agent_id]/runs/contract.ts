import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { CONSOLE_START_ERRORS, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { RunAccepted, StartRunBody } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/runs",
  auth: "member",
  params: OrgAgentParams,
  body: StartRunBody,
  responses: { 201: RunAccepted },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, ...CONSOLE_START_ERRORS, "invalid_agent_version"],
  openapi: () => ({
    operationId: "startAgentRun",
    summary: "Start a run (test console)",
    tag: "Test console",
    description:
      'Every member. The console\'s "start a run": the same run as a trigger of the workflow agent, started ' +
      "by a person (`manual`, recorded with them), `pending` and running in the background: follow it with " +
      "the run's routes. `agent_version` may name the draft. A conversational agent: " +
      "`400 runtime_not_applicable`.",
    bodyExamples: {
      inputs: { summary: "The workflow's inputs", value: { inputs: ex.workflowInputs } },
      draft: { summary: "The draft, on the same inputs", value: { inputs: ex.workflowInputs, agent_version: 4 } },
    },
    responses: {
      "201": { description: "The run, pending.", examples: { run: { summary: "Started", value: ex.runAccepted } } },
    },
  }),
});
