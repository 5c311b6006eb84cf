import * as ex from "@/lib/openapi/examples";
import { VersionParams, VersionRecord } from "@/lib/agents/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]",
  auth: "member",
  params: VersionParams,
  responses: { 200: VersionRecord },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "agent_version_not_found"],
  openapi: () => ({
    operationId: "getAgentVersion",
    summary: "Fetch an agent version",
    tag: "Agent versions",
    description: "The version with its configuration, credentials redacted as in every agent answer.",
    responses: {
      "200": { description: "The version.", examples: { draft: { summary: "A draft", value: ex.versionRecord } } },
    },
  }),
});
