import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG } from "@/lib/openapi/org-work";
import { CONSOLE_START_ERRORS, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { OrgRunParams, RerunBody, RunAccepted } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]/rerun",
  auth: "member",
  params: OrgRunParams,
  body: RerunBody,
  responses: { 201: RunAccepted },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, ...CONSOLE_START_ERRORS, "run_not_found", "invalid_state_transition"],
  openapi: () => ({
    operationId: "rerunOrganizationRun",
    summary: "Run a finished run again",
    tag: TAG.runs,
    description:
      "Every member. A new run of the same agent and version from a finished run (`completed`, `failed` or " +
      "`cancelled`; else `409 invalid_state_transition`), with `inputs` as given (the console offers the old " +
      "ones to edit), checked as a trigger's. The new run names its origin (`rerun_of`).",
    bodyExamples: {
      again: { summary: "The same inputs", value: { inputs: ex.workflowInputs } },
    },
    responses: {
      "201": { description: "The new run.", examples: { started: { summary: "Started", value: ex.runAccepted } } },
    },
  }),
});
