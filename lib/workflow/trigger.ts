// Starting a run: the inputs are checked against the workflow's declared inputs, file references
// are checked (docs/api.md, Trigger: unknown or foreign files are refused before anything is stored), then the
// run (with a snapshot of the definition) and its job are created in one transaction. Used by
// POST /api/agents/webhook/{agent_id}, POST /api/workflows/{agent_id}/trigger and the console.
import { assertNotArchived } from "../archived";
import { audit, type Actor } from "../audit";
import { givenCallbackUrl } from "../callbacks/events";
import { ApiError } from "../errors";
import { resolveFileRefs } from "../files/refs";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { enqueue, transactionWithJobs } from "../queue";
import type { WorkflowTriggerBody } from "../runs/schemas";
import { requireWorkflowAgent } from "../runs/service";
import { agentAt, pinnedVersion, servingVersion, versionUsage } from "../serving";
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
  /** Where the run's state changes are sent (takeTriggerFields); absent: the default of the agent version that serves it. */
  callbackUrl?: string | null;
  /** The finished run this one starts again (lib/workflow/rerun.ts): stored, and audited as `run.rerun`. */
  rerunOf?: string;
  /** The trigger's `agent_version` (a version that is or was published), else the one lib/serving.ts chooses. */
  agentVersion?: unknown;
  /** The console's test console may try the draft too. */
  allowDraft?: boolean;
}): Promise<{ runId: string; agentVersion: number }> {
  requireWorkflowAgent(opts.agent);
  assertNotArchived(opts.agent);
  const runId = newId("run");
  const pin = await pinnedVersion(opts.agent, opts.agentVersion, { allowDraft: opts.allowDraft });
  // The end user keeps one version across runs (a `user_id` input), else the run is placed by its id.
  const user = typeof opts.inputs.user_id === "string" && opts.inputs.user_id ? opts.inputs.user_id : runId;
  const agent = await agentAt(opts.agent, pin ?? servingVersion(opts.agent, user));
  const definition = StoredWorkflowDefinition.parse(agent.workflow);
  const inputs = parseWith(inputsSchema(definition), opts.inputs, "body") as Record<string, unknown>;
  await resolveFileRefs(inputs, {
    organizationId: opts.agent.organizationId,
    agentId: opts.agent.id,
    baseUrl: opts.baseUrl,
  });
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
        callbackUrl: opts.callbackUrl === undefined ? (agent.callbackUrl ?? null) : opts.callbackUrl,
        rerunOf: opts.rerunOf ?? null,
        agentVersion: agent.servedVersion,
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
    ...versionUsage(agent),
  });
  return { runId, agentVersion: agent.servedVersion };
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
 * The fields of a trigger that are not inputs: its `callback_url` (checked: 400 invalid_callback_url;
 * undefined when it names none, so that the serving version's default applies) and its
 * `agent_version` pin, and the inputs without them. When the inputs are the body itself (POST
 * /api/agents/webhook/{agent_id}) each field is taken out of them, unless the (published) workflow
 * declares an input of that name: then it stays an input.
 */
export function takeTriggerFields(
  agent: Agent,
  body: Record<string, unknown>,
  inputs: Record<string, unknown>,
  inputsAreBody: boolean,
): { inputs: Record<string, unknown>; callbackUrl: string | undefined; agentVersion: unknown } {
  if (!inputsAreBody) {
    return { inputs, callbackUrl: givenCallbackUrl(body) ?? undefined, agentVersion: body.agent_version };
  }
  const parsed = StoredWorkflowDefinition.safeParse(agent.workflow);
  const declared = (name: string) => parsed.success && Object.hasOwn(parsed.data.inputs, name);
  const rest = { ...inputs };
  let callbackUrl: string | undefined;
  let agentVersion: unknown;
  if (!declared("callback_url")) {
    callbackUrl = givenCallbackUrl(body) ?? undefined;
    delete rest.callback_url;
  }
  if (!declared("agent_version")) {
    agentVersion = body.agent_version;
    delete rest.agent_version;
  }
  return { inputs: rest, callbackUrl, agentVersion };
}
