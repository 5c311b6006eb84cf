// The test console's "start a run": the same run as a trigger, started by a person.
import { loadAgentForKey } from "@/lib/agents/service";
import { withMember } from "@/lib/http/member";
import { HttpAnswer } from "@/lib/http/handler";
import { createRun } from "@/lib/workflow/trigger";
import * as contract from "./contract";

export const POST = withMember(contract.POST, async ({ organizationId, actor, params, body, baseUrl }) => {
  const agent = await loadAgentForKey(organizationId, String(params.agent_id));
  const { runId, agentVersion } = await createRun({
    agent,
    inputs: body.inputs,
    actor,
    triggerType: "manual",
    baseUrl,
    agentVersion: body.agent_version,
    allowDraft: true,
  });
  return new HttpAnswer({ run_id: runId, status: "pending", agent_id: agent.id, agent_version: agentVersion }, 201);
});
