// The run control routes share one shape (docs/workflows.md, States and transitions): empty body, optional ?triggered_by. The
// organization API's control routes (/api/v1/organizations/[org_id]/runs/[run_id]/<action>) are the
// same call on a run found by id within the organization, by any member.
import type { z } from "zod";
import type { OrgRunParams, ControlQuery, RunParams } from "../runs/schemas";
import { controlRun, getOrgRun, loadOrgRun } from "../runs/service";
import type { ControlAction } from "../runs/state";
import type { RouteContract } from "./contract";
import { withAccessKey } from "./handler";
import { withMember } from "./member";

/** `contract`: the route's (app/api/agents/[agent_id]/runs/[run_id]/<action>/contract.ts). */
export const controlRoute = (
  action: ControlAction,
  contract: RouteContract<z.output<typeof RunParams>, z.output<typeof ControlQuery>, undefined>,
) =>
  withAccessKey(contract, ({ agent, actor, params, query, baseUrl }) =>
    controlRun({ agent, runId: params.run_id, action, actor, triggeredBy: query.triggered_by, baseUrl }),
  );

/** `contract`: the route's (app/api/v1/organizations/[org_id]/runs/[run_id]/<action>/contract.ts). */
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
