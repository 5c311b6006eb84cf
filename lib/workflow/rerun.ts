// "Run again" (docs/console.md, Runs): a finished run's agent started anew with edited inputs,
// checked exactly as a trigger's are (createRun: the workflow's declared inputs, file references),
// and linked to the original (`rerun_of`), which lists its reruns.
import type { Actor } from "../audit";
import { ApiError } from "../errors";
import { loadOrgRun } from "../runs/service";
import { allowedActions } from "../runs/state";
import { createRun } from "./trigger";

/** The states in which a run has ended and may be run again. */
export const RERUNNABLE = ["completed", "failed", "cancelled"] as const;

export async function rerunRun(opts: {
  organizationId: string;
  runId: string;
  inputs: Record<string, unknown>;
  actor: Actor;
  baseUrl: string;
}): Promise<{ run_id: string; status: "pending"; agent_id: string; agent_version: number }> {
  const original = await loadOrgRun(opts.organizationId, opts.runId);
  if (!(RERUNNABLE as readonly string[]).includes(original.status)) {
    throw new ApiError(
      "invalid_state_transition",
      `Only a finished run (${RERUNNABLE.join(", ")}) can be run again; this one is ${original.status}.`,
      { current_status: original.status, allowed_actions: allowedActions(original.status) },
    );
  }
  const { runId, agentVersion } = await createRun({
    agent: original.agent,
    inputs: opts.inputs,
    actor: opts.actor,
    triggerType: "rerun",
    baseUrl: opts.baseUrl,
    callbackUrl: original.callbackUrl,
    rerunOf: original.id,
    // The same version as the original run (one from before versions: the published one).
    agentVersion: original.agentVersion ?? undefined,
  });
  return { run_id: runId, status: "pending", agent_id: original.agentId, agent_version: agentVersion };
}
