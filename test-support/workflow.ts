// Fixtures for workflow unit tests: an organization, a workflow agent and a key principal in the
// test database, and a way to run the engine to its next stop without the queue worker.
import type { KeyPrincipal } from "../lib/auth/access-keys";
import { keyActor } from "../lib/audit";
import { prisma } from "../lib/db";
import type { Evaluator } from "../lib/expressions";
import type { Agent, Prisma } from "../lib/generated/prisma/client";
import { newId } from "../lib/ids";
import { runEngine } from "../lib/workflow/engine";
import { WorkflowDefinition } from "../lib/workflow/schema";
import { createRun } from "../lib/workflow/trigger";

export async function workflowAgent(
  workflow: unknown,
  runtime: unknown = { type: "echo" },
): Promise<{
  agent: Agent;
  key: KeyPrincipal;
}> {
  const db = await prisma();
  const orgId = newId("org");
  const projectId = newId("proj");
  await db.organization.create({ data: { id: orgId, name: orgId } });
  await db.project.create({ data: { id: projectId, organizationId: orgId, name: "default" } });
  const agent = await db.agent.create({
    data: {
      id: newId("agt"),
      organizationId: orgId,
      projectId,
      name: "wf",
      kind: "workflow",
      runtime: runtime as Prisma.InputJsonValue,
      workflow: WorkflowDefinition.parse(workflow) as Prisma.InputJsonValue,
    },
  });
  return {
    agent,
    key: {
      keyId: newId("key"),
      organizationId: orgId,
      name: "unit key",
      permissions: ["agents:invoke"],
      rateLimitPerMinute: null,
      agentIds: [],
      expiresAt: null,
      revokeAt: null,
    },
  };
}

export async function startRun(agent: Agent, key: KeyPrincipal, inputs: Record<string, unknown>) {
  const { runId } = await createRun({
    agent,
    inputs,
    actor: keyActor(key),
    triggerType: "event",
    baseUrl: "http://localhost:3000",
  });
  return runId;
}

/** Runs the engine for the run's current epoch (what the queued job would do). */
export async function drive(runId: string, signal?: AbortSignal, evaluator?: Evaluator) {
  const db = await prisma();
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  await runEngine({ runId, epoch: run.epoch, baseUrl: "http://localhost:3000", signal, evaluator });
  return db.run.findUniqueOrThrow({ where: { id: runId } });
}
