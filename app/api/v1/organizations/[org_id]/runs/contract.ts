import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, orgRunListItem } from "@/lib/openapi/org-work";
import { OrgRunPage, OrgRunsQuery } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/runs",
  auth: "member",
  params: OrgParams,
  query: OrgRunsQuery,
  responses: { 200: OrgRunPage },
  errors: [...USER_ERRORS, "invalid_request", "invalid_status"],
  openapi: () => ({
    operationId: "listOrganizationRuns",
    summary: "List runs across agents",
    tag: TAG.runs,
    description:
      "Every member. The runs of every workflow agent of the organization, newest first, with the console's " +
      "filters (docs/console.md, List filters). A page at a time: `next_cursor` (null on the last page) passed " +
      "as `cursor`, with the same filters, answers the next page.",
    responses: {
      "200": {
        description: "The runs.",
        examples: {
          runs: { summary: "One run", value: { runs: [orgRunListItem], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});
