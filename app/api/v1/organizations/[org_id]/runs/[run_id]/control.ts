// The organization API's run controls: the public control routes' call
// (app/api/agents/[agent_id]/runs/[run_id]/control.ts) on a run found by id within the organization,
// by any member; they answer the run.
import type { z } from "zod";
import type { RouteContract } from "@/lib/http/contract";
import { withMember } from "@/lib/http/member";
import type { OrgRunParams } from "@/lib/runs/schemas";
import { controlRun, getOrgRun, loadOrgRun } from "@/lib/runs/service";
import type { ControlAction } from "@/lib/runs/state";

/** `contract`: the route's (./<action>/contract.ts). */
export const orgControlRoute = (
  action: ControlAction,
  contract: RouteContract<z.output<typeof OrgRunParams>, undefined, undefined>,
) =>
  withMember(contract, async ({ organizationId, actor, user, params, baseUrl }) => {
    const run = await loadOrgRun(organizationId, params.run_id);
    await controlRun({
      agent: run.agent,
      runId: run.id,
      action,
      actor,
      triggeredBy: `dashboard:${user.email}`,
      baseUrl,
    });
    return getOrgRun({ organizationId, runId: run.id, baseUrl });
  });
