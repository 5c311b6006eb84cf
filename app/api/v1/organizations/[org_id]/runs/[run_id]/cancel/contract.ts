import { orgControlDoc } from "@/lib/openapi/org-work";
import { USER_ERRORS } from "@/lib/openapi/management";
import { OrgRunDetail, OrgRunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]/cancel",
  auth: "member",
  params: OrgRunParams,
  responses: { 200: OrgRunDetail },
  errors: [...USER_ERRORS, "invalid_request", "run_not_found", "invalid_state_transition"],
  openapi: () => orgControlDoc("cancel"),
});
