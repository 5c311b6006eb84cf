import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, orgApproval } from "@/lib/openapi/org-work";
import { MemberApprovalList, OrgRunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]/approvals",
  auth: "member",
  params: OrgRunParams,
  responses: { 200: MemberApprovalList },
  errors: [...USER_ERRORS, "invalid_request", "run_not_found"],
  openapi: () => ({
    operationId: "listOrganizationRunApprovals",
    summary: "List a run's approvals",
    tag: TAG.runs,
    description:
      "Every member. The run's open approvals, each with its item's index and the member deciding it while " +
      "their claim lasts (`claimed_by`, `claimed_until`), and its latest decisions, newest first (`decisions`, " +
      "with the fields an edit changed in `diff`).",
    responses: {
      "200": {
        description: "The approvals and decisions.",
        examples: {
          open: { summary: "One open approval, claimed", value: { approvals: [orgApproval], decisions: [] } },
        },
      },
    },
  }),
});
