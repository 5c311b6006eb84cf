// The run control routes share one shape (SPEC 4.9): empty body, optional ?triggered_by.
import { withAccessKey } from "../http/handler";
import { baseUrl } from "../http/base-url";
import { ControlQuery, RunParams } from "./schemas";
import { controlRun, keyActor } from "./service";
import type { ControlAction } from "./state";

export const controlRoute = (action: ControlAction) =>
  withAccessKey({ params: RunParams, query: ControlQuery }, ({ req, key, agent, params, query }) =>
    controlRun({
      agent,
      runId: params.run_id,
      action,
      actor: keyActor(key),
      triggeredBy: query.triggered_by,
      baseUrl: baseUrl(req),
    }),
  );
