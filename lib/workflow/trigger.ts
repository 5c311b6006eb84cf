// Starting a run: the inputs are checked against the workflow's declared inputs, file references
// are checked (docs/api.md, Trigger: unknown or foreign files are refused before anything is stored), then the
// run (with a snapshot of the definition) and its job are created in one transaction. Used by
// POST /api/agents/webhook/{agent_id}, POST /api/workflows/{agent_id}/trigger and the console.
import { assertNotArchived } from "../archived";
import { audit, type Actor } from "../audit";
import { chooseCallbackUrl } from "../callbacks/events";
import { ApiError } from "../errors";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { enqueue, transactionWithJobs } from "../queue";
import type { WorkflowTriggerBody } from "../runs/schemas";
import { requireWorkflowAgent } from "../runs/service";
import { recordUsage } from "../usage/recorder";
import { parseWith } from "../validate";
import { inputsSchema } from "./inputs";
import { StoredWorkflowDefinition } from "./schema";

export async function createRun(opts: {
  agent: Agent;
  /** The trigger body: the workflow's input fields. */
  inputs: Record<string, unknown>;
  actor: Actor;
  triggerType: string;
  /** Base of the signed links handed to steps (the address the caller used). */
  baseUrl: string;
  /** Where the run's state changes are sent (takeCallbackUrl); absent: the agent's default. */
  callbackUrl?: string | null;
  /** The finished run this one starts again (lib/workflow/rerun.ts): stored, and audited as `run.rerun`. */
  rerunOf?: string;
}): Promise<{ runId: string }> {
  requireWorkflowAgent(opts.agent);
  assertNotArchived(opts.agent);
  const definition = StoredWorkflowDefinition.parse(opts.agent.workflow);
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
        userId: typeof inputs.user_id === "string" && inputs.user_id.length <= 256 ? inputs.user_id : "",
        inputs: inputs as Prisma.InputJsonValue,
        definition: definition as Prisma.InputJsonValue,
        callbackUrl: opts.callbackUrl === undefined ? (opts.agent.callbackUrl ?? null) : opts.callbackUrl,
        rerunOf: opts.rerunOf ?? null,
        accessKeyId: opts.actor.type === "access_key" ? (opts.actor.id ?? null) : null,
      },
    });
    await audit({
      tx,
      organizationId: opts.agent.organizationId,
      actor: opts.actor,
      action: opts.rerunOf ? "run.rerun" : "run.trigger",
      targetType: "run",
      targetId: runId,
      data: {
        from: null,
        to: "pending",
        seq: 0,
        triggered_by: null,
        trigger_type: opts.triggerType,
        ...(opts.rerunOf ? { rerun_of: opts.rerunOf } : {}),
      },
    });
    await enqueue("run", { runId, epoch: 0, baseUrl: opts.baseUrl, organizationId: opts.agent.organizationId }, { tx });
  });
  recordUsage({
    organizationId: opts.agent.organizationId,
    agentId: opts.agent.id,
    keyId: opts.actor.type === "access_key" ? opts.actor.id : null,
    runsStarted: 1,
  });
  return { runId };
}

/**
 * The inputs of POST /api/workflows/{agent_id}/trigger: `payload` merged with `variables`. A body
 * without `payload` whose top-level keys are input names was meant as the inputs themselves: it is
 * refused with the wrapper it lacks, rather than started with those inputs missing.
 */
export function aliasInputs(agent: Agent, body: WorkflowTriggerBody): Record<string, unknown> {
  assertNotArchived(agent);
  if (body.payload === undefined) {
    const declared = StoredWorkflowDefinition.parse(agent.workflow).inputs;
    const stray = Object.keys(body).filter((k) => k !== "payload" && k !== "variables" && Object.hasOwn(declared, k));
    if (stray.length) {
      const example = `{"payload": {${stray.map((k) => `"${k}": ...`).join(", ")}}}`;
      const message = `inputs go inside "payload": ${example}`;
      throw new ApiError("invalid_request", `Invalid body: ${message}`, {
        fields: [
          { field: "payload", message },
          ...stray.map((field) => ({ field, message: 'an input: send it inside "payload"' })),
        ],
      });
    }
  }
  return { ...body.payload, ...body.variables };
}

/**
 * A trigger's `callback_url` (checked: 400 invalid_callback_url) or else the agent's default, and
 * the inputs without it. When the inputs are the body itself (POST /api/agents/webhook/{agent_id})
 * the field is taken out of them, unless the workflow declares an input of that name: then it stays
 * an input and the agent's default applies.
 */
export function takeCallbackUrl(
  agent: Agent,
  body: Record<string, unknown>,
  inputs: Record<string, unknown>,
  inputsAreBody: boolean,
): { inputs: Record<string, unknown>; callbackUrl: string | null } {
  if (!inputsAreBody) return { inputs, callbackUrl: chooseCallbackUrl(body, agent) };
  const parsed = StoredWorkflowDefinition.safeParse(agent.workflow);
  if (parsed.success && Object.hasOwn(parsed.data.inputs, "callback_url")) {
    return { inputs, callbackUrl: agent.callbackUrl ?? null };
  }
  const callbackUrl = chooseCallbackUrl(body, agent);
  if (!Object.hasOwn(inputs, "callback_url")) return { inputs, callbackUrl };
  const { callback_url: _, ...rest } = inputs;
  return { inputs: rest, callbackUrl };
}
