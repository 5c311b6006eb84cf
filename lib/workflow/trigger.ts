// Starting a run: the inputs are checked against the workflow's declared inputs, file references
// are checked (SPEC 4.1: unknown or foreign files are refused before anything is stored), then the
// run (with a snapshot of the definition) and its job are created in one transaction. Used by
// POST /api/agents/webhook/{agent_id}, POST /api/workflows/{agent_id}/trigger and the dashboard.
import { audit, type Actor } from "../audit";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { enqueue, transactionWithJobs } from "../queue";
import { requireWorkflowAgent } from "../runs/service";
import { parseWith } from "../validate";
import { inputsSchema } from "./inputs";
import { WorkflowDefinition } from "./schema";

export async function createRun(opts: {
  agent: Agent;
  /** The trigger body: the workflow's input fields. */
  inputs: Record<string, unknown>;
  actor: Actor;
  triggerType: string;
  /** Base of the signed links handed to steps (the address the caller used). */
  baseUrl: string;
}): Promise<{ runId: string }> {
  requireWorkflowAgent(opts.agent);
  const definition = WorkflowDefinition.parse(opts.agent.workflow);
  const inputs = parseWith(inputsSchema(definition), opts.inputs, "body") as Record<string, unknown>;
  await resolveFileRefs(inputs, {
    organizationId: opts.agent.organizationId,
    agentId: opts.agent.id,
    baseUrl: opts.baseUrl,
  });
  const runId = newId("run");
  await transactionWithJobs(async (tx) => {
    await tx.run.create({
      data: {
        id: runId,
        organizationId: opts.agent.organizationId,
        projectId: opts.agent.projectId,
        agentId: opts.agent.id,
        status: "pending",
        triggerType: opts.triggerType,
        inputs: inputs as Prisma.InputJsonValue,
        definition: definition as Prisma.InputJsonValue,
      },
    });
    await audit({
      tx,
      organizationId: opts.agent.organizationId,
      actor: opts.actor,
      action: "run.trigger",
      targetType: "run",
      targetId: runId,
      data: { from: null, to: "pending", seq: 0, triggered_by: null, trigger_type: opts.triggerType },
    });
    await enqueue("run", { runId, epoch: 0, baseUrl: opts.baseUrl }, { tx });
  });
  return { runId };
}
