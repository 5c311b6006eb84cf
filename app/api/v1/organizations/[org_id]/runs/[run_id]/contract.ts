import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, orgRunDetail } from "@/lib/openapi/org-work";
import { OrgRunDetail, OrgRunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]",
  auth: "member",
  params: OrgRunParams,
  responses: { 200: OrgRunDetail },
  errors: [...USER_ERRORS, "invalid_request", "run_not_found"],
  openapi: () => ({
    operationId: "getOrganizationRun",
    summary: "Get a run",
    tag: TAG.runs,
    description:
      "Every member. A run of any agent of the organization: its record (docs/workflows.md, Run fields) with " +
      "its agent's name, its inputs, the controls its state allows now (`allowed_actions`) and the runs it was " +
      "started again as or from (`reruns`, `rerun_of`). A run of another organization is `404 run_not_found`.",
    responses: {
      "200": { description: "The run.", examples: { paused: { summary: "A paused run", value: orgRunDetail } } },
    },
  }),
});
