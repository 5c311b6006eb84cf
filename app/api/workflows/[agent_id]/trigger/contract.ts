import * as ex from "@/lib/openapi/examples";
import { IDEMPOTENCY_KEY, JSON_BODY_ERRORS, KEY_ERRORS, ref } from "@/lib/openapi/parts";
import { WorkflowRunAccepted, WorkflowTriggerBody } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";
import { AgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/workflows/[agent_id]/trigger",
  auth: "accessKey",
  params: AgentParams,
  body: WorkflowTriggerBody,
  idempotency: "workflow-trigger",
  responses: { 202: WorkflowRunAccepted },
  errors: [
    ...KEY_ERRORS,
    ...JSON_BODY_ERRORS,
    "file_not_found",
    "invalid_callback_url",
    "invalid_agent_version",
    "runtime_not_applicable",
    "agent_archived",
    "idempotency_conflict",
  ],
  openapi: () => ({
    operationId: "triggerWorkflow",
    summary: "Trigger a workflow (client SDK form)",
    tag: "Triggers",
    description:
      "The existing client SDK's trigger: the run's inputs are `payload` merged with `variables`. A body " +
      "without `payload` whose top-level keys are input names is refused (`400 invalid_request`) rather " +
      "than started without them.",
    parameters: [IDEMPOTENCY_KEY],
    bodyExamples: {
      trigger: { summary: "Inputs in payload", value: { payload: ex.workflowInputs, variables: {} } },
    },
    responses: {
      "202": {
        description: "The run was created.",
        examples: { triggered: { summary: "Triggered", value: ex.workflowRunAccepted } },
        headers: { "Idempotent-Replayed": ref("headers/Idempotent-Replayed") },
      },
    },
  }),
});
