import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { MemberResolveBody, OrgRunParams, ResolveResult } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

const TAKE_OVER = { exception_id: ex.ID.exception, resolution: "rejected", reason: "duplicate order", take_over: true };

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/runs/[run_id]/approvals/resolve",
  auth: "member",
  params: OrgRunParams,
  body: MemberResolveBody,
  responses: { 200: ResolveResult },
  errors: [
    ...USER_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_resolution",
    "run_not_found",
    "approval_not_found",
    "invalid_state_transition",
    "approval_claimed",
  ],
  openapi: () => ({
    operationId: "resolveOrganizationRunApproval",
    summary: "Decide a run's approval",
    tag: TAG.runs,
    description:
      "Every member. As `resolveApproval`, decided by the member: a `rejected` needs a `reason`; an item " +
      "another member has claimed is `409 approval_claimed` unless `take_over` (docs/console.md, Reviews). " +
      "When the last open approval of a `needs_review` run is decided, the run resumes (`resumed: true`).",
    bodyExamples: {
      reject: { summary: "Reject, taking it over", value: TAKE_OVER },
      approve: { summary: "Approve", value: ex.resolveBody },
    },
    responses: {
      "200": {
        description: "Decided.",
        examples: {
          resolved: { summary: "The last one", value: { ...ex.resolveResult, resolved_by: "ada@example.com" } },
        },
      },
    },
  }),
});
