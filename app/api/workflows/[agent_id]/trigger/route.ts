// The existing client SDK's trigger: {payload, variables}; the inputs are payload merged with variables.
import { withAccessKey } from "@/lib/http/handler";
import { runTrigger } from "@/lib/http/triggers";
import { WorkflowTriggerBody } from "@/lib/runs/schemas";
import { requireWorkflowAgent } from "@/lib/runs/service";
import { aliasInputs } from "@/lib/workflow/trigger";

export const POST = withAccessKey(
  { agentKind: requireWorkflowAgent, body: WorkflowTriggerBody, idempotency: "workflow-trigger" },
  (c) => runTrigger(c, aliasInputs(c.agent, c.body), (runId) => ({ run_id: runId, status: "triggered" })),
);
