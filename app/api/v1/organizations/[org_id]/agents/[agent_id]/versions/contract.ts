import * as ex from "@/lib/openapi/examples";
import { VersionList, VersionListQuery } from "@/lib/agents/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/versions",
  auth: "member",
  params: OrgAgentParams,
  query: VersionListQuery,
  responses: { 200: VersionList },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found"],
  openapi: () => ({
    operationId: "listAgentVersions",
    summary: "List an agent's versions",
    tag: "Agent versions",
    description:
      "Newest first, a page at a time (docs/api.md, Paging). Each version's `state` (draft, published, rollout, " +
      "retired, rolled_back, superseded) and its share of new sessions and runs now; the configuration is in " +
      "`GET .../versions/{version}`.",
    responses: {
      "200": {
        description: "The versions.",
        examples: { versions: { summary: "A draft on top of version 3", value: ex.versionList } },
      },
    },
  }),
});
