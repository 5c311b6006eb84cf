// The existing client SDK's trigger: {payload, variables}; the inputs are payload merged with variables.
import { withAccessKey } from "@/lib/http/handler";
import { runTrigger } from "@/app/api/agents/webhook/[agent_id]/triggers";
import { requireWorkflowAgent } from "@/lib/runs/service";
import { aliasInputs } from "@/lib/workflow/trigger";
import * as contract from "./contract";

export const POST = withAccessKey({ ...contract.POST, agentKind: requireWorkflowAgent }, (c) =>
  runTrigger(c, aliasInputs(c.agent, c.body), (runId) => ({ run_id: runId, status: "triggered" })),
);
