// Request shapes of the run routes (SPEC 4.7-4.9) and the approvals API.
import { z } from "zod";
import { queryLimit, queryOffset } from "../validate";

export const RunParams = z.object({ agent_id: z.string(), run_id: z.string() });

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

/** Other query parameters are ignored (SPEC 4.7); status is checked by the service (invalid_status). */
export const ListRunsQuery = z.object({
  limit: queryLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX),
  status: z.string().optional(),
});

export const ControlQuery = z.object({ triggered_by: z.string().trim().min(1).max(200).optional() });

export const RESOLUTIONS = ["approved", "rejected", "modified"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** resolution is checked by the service so that an unknown value is 400 invalid_resolution. */
export const ResolveBody = z.object({
  exception_id: z.string().min(1),
  resolution: z.string(),
  modified_data: z.unknown().optional(),
});

/** POST /api/workflows/{agent_id}/trigger; other top-level keys are kept so that inputs sent
 *  without the payload wrapper can be named in the error (lib/workflow/trigger.ts aliasInputs). */
export const WorkflowTriggerBody = z.looseObject({
  payload: z.record(z.string(), z.unknown()).optional(),
  variables: z.record(z.string(), z.unknown()).default({}),
});
export type WorkflowTriggerBody = z.infer<typeof WorkflowTriggerBody>;

/** Dashboard: the organization's runs; status is checked by the service (invalid_status). */
export const OrgRunsQuery = z.object({
  agent_id: z.string().min(1).optional(),
  status: z.string().optional(),
  limit: queryLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX),
  offset: queryOffset,
});

export const RunItemsQuery = z.object({
  status: z.string().optional(),
  limit: queryLimit(50, 200),
  offset: queryOffset,
});

export const ConsoleRunParams = z.object({ run_id: z.string() });
