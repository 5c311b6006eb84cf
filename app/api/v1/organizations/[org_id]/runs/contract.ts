import { ORG_ID, USER_ERRORS } from "@/lib/openapi/management";
import { TAG, orgRunListItem } from "@/lib/openapi/org-work";
import { OrgRunPage, OrgRunsQuery, RunStatus } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/runs",
  auth: "member",
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
    parameters: [ORG_ID],
    queryDocs: {
      from: "Only runs created at or after this instant (RFC 3339, or a date).",
      to: "Only runs created before this instant (RFC 3339, or a date: through its end, UTC).",
      agent_id: "Only this agent's runs (`agt_...`).",
      status: `Only runs in this state: ${RunStatus.options.map((s) => `\`${s}\``).join(", ")}.`,
      user_id: "Only runs whose `user_id` input is this value.",
      has_error: "`true`: only failed runs; `false`: the others.",
      agent_version: "With `agent_id`: only the runs of this version of it.",
    },
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
