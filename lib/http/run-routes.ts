// The run control routes share one shape (SPEC 4.9): empty body, optional ?triggered_by.
import { ControlQuery, RunParams } from "../runs/schemas";
import { controlRun } from "../runs/service";
import type { ControlAction } from "../runs/state";
import { withAccessKey } from "./handler";

export const controlRoute = (action: ControlAction) =>
  withAccessKey({ params: RunParams, query: ControlQuery }, ({ agent, actor, params, query, baseUrl }) =>
    controlRun({ agent, runId: params.run_id, action, actor, triggeredBy: query.triggered_by, baseUrl }),
  );
