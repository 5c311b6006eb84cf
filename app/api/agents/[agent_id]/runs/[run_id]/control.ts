// The run control routes share one shape (docs/workflows.md, States and transitions): empty body,
// optional ?triggered_by.
import type { z } from "zod";
import type { RouteContract } from "@/lib/http/contract";
import { withAccessKey } from "@/lib/http/handler";
import type { ControlQuery, RunParams } from "@/lib/runs/schemas";
import { controlRun } from "@/lib/runs/service";
import type { ControlAction } from "@/lib/runs/state";

/** `contract`: the route's (./<action>/contract.ts). */
export const controlRoute = (
  action: ControlAction,
  contract: RouteContract<z.output<typeof RunParams>, z.output<typeof ControlQuery>, undefined>,
) =>
  withAccessKey(contract, ({ agent, actor, params, query, baseUrl }) =>
    controlRun({ agent, runId: params.run_id, action, actor, triggeredBy: query.triggered_by, baseUrl }),
  );
