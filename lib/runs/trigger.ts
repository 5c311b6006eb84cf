// Starting a run: the trigger body is checked against the workflow's declared inputs, file
// references are checked (SPEC 4.1: unknown or foreign files are refused before anything is
// stored), then the run (with a snapshot of the definition) and its job are created in one
// transaction. Used by POST /api/agents/webhook/{agent_id} and POST /api/workflows/{agent_id}/trigger.
import type { KeyPrincipal } from "../auth/access-keys";
import { audit } from "../audit";
import { prisma } from "../db";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { baseUrl } from "../http/base-url";
import { readJson } from "../http/body";
import { Reply } from "../http/handler";
import { parseWith } from "../http/validate";
import { idempotent } from "../idempotency";
import { newId } from "../ids";
import { enqueue, queue, QUEUES } from "../queue";
import { inputsSchema } from "../workflow/inputs";
import { WorkflowDefinition } from "../workflow/schema";
import { WorkflowTriggerBody } from "./schemas";
import { keyActor, requireWorkflowAgent } from "./service";

export async function createRun(opts: {
  agent: Agent;
  key: KeyPrincipal;
  body: Record<string, unknown>;
  triggerType: string;
  baseUrl: string;
}): Promise<{ runId: string }> {
  requireWorkflowAgent(opts.agent);
  const definition = WorkflowDefinition.parse(opts.agent.workflow);
  const inputs = parseWith(inputsSchema(definition), opts.body, "body") as Record<string, unknown>;
  await resolveFileRefs(inputs, {
    organizationId: opts.agent.organizationId,
    agentId: opts.agent.id,
    baseUrl: opts.baseUrl,
  });
  const runId = newId("run");
  // Started outside the transaction: on PGlite's one connection, starting pg-boss inside it would wait on it.
  await queue();
  const db = await prisma();
  await db.$transaction(async (tx) => {
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
      actor: keyActor(opts.key),
      action: "run.trigger",
      targetType: "run",
      targetId: runId,
      data: { from: null, to: "pending", seq: 0, triggered_by: null, trigger_type: opts.triggerType },
    });
    await enqueue(QUEUES.run, { runId, epoch: 0, baseUrl: opts.baseUrl }, { tx });
  });
  return { runId };
}

/** The workflow branch of POST /api/agents/webhook/{agent_id} (lib/triggers.ts). */
export async function triggerRun(opts: {
  req: Request;
  key: KeyPrincipal;
  agent: Agent;
  requestId: string;
  body: Record<string, unknown>;
  triggerType: string;
}): Promise<Reply> {
  const { runId } = await createRun({ ...opts, baseUrl: baseUrl(opts.req) });
  return new Reply({ run_id: runId, status: "pending", agent_id: opts.agent.id }, 202);
}

/** POST /api/workflows/{agent_id}/trigger: {payload, variables}; the inputs are payload merged with variables. */
export async function triggerWorkflow(opts: { req: Request; key: KeyPrincipal; agent: Agent; requestId: string }) {
  requireWorkflowAgent(opts.agent);
  const raw = await readJson(opts.req);
  const body = parseWith(WorkflowTriggerBody, raw, "body");
  return idempotent(
    {
      req: opts.req,
      organizationId: opts.key.organizationId,
      scope: `workflow-trigger:${opts.agent.id}`,
      body: raw,
      requestId: opts.requestId,
    },
    async () => {
      const { runId } = await createRun({
        agent: opts.agent,
        key: opts.key,
        body: { ...body.payload, ...body.variables },
        triggerType: "event",
        baseUrl: baseUrl(opts.req),
      });
      return new Reply({ run_id: runId, status: "triggered" }, 202);
    },
  );
}
