import * as ex from "@/lib/openapi/examples";
import { VersionDiff, VersionDiffQuery, VersionParams } from "@/lib/agents/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/diff",
  auth: "member",
  params: VersionParams,
  query: VersionDiffQuery,
  responses: { 200: VersionDiff },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "agent_version_not_found"],
  openapi: () => ({
    operationId: "diffAgentVersions",
    summary: "Compare two agent versions",
    tag: "Agent versions",
    description:
      "The changes that lead from `{version}` to `to`, as `{path, change, from, to}`: objects key by key, a " +
      "workflow's steps by `id` (a step added, removed or changed is one entry, `workflow.steps.<id>`; a new " +
      "order is one `moved` entry), other arrays as one value. Values are shown redacted as in every agent " +
      "answer: a credential that changed reads `[redacted]` on both sides; secret references show their names.",
    responses: {
      "200": {
        description: "The changes.",
        examples: { diff: { summary: "A prompt and a header", value: ex.versionDiff } },
      },
    },
  }),
});
