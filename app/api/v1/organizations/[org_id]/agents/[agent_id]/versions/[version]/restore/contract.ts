import * as ex from "@/lib/openapi/examples";
import { AgentRecord, RestoreBody, VersionParams } from "@/lib/agents/schemas";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { IF_MATCH, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/restore",
  auth: "member",
  admin: true,
  params: VersionParams,
  body: RestoreBody,
  bodyOptional: true,
  responses: { 200: AgentRecord },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "agent_not_found",
    "agent_version_not_found",
    "version_is_draft",
    "draft_conflict",
  ],
  openapi: () => ({
    operationId: "restoreAgentVersion",
    summary: "Restore a version into the draft",
    tag: "Agent versions",
    description:
      "Admin only. The version's configuration, exactly as stored (never the redacted form an answer shows), " +
      "becomes a new draft; publish it to make it live. When the agent has a draft, name it (`base_version` or " +
      "`If-Match`): the restore replaces it. The body is optional.",
    parameters: [IF_MATCH],
    bodyExamples: {
      replace: { summary: "Replace draft 5", value: { base_version: 5, note: "Back to the short prompt" } },
    },
    responses: {
      "200": {
        description: "The agent, its `draft_version` the restored copy.",
        headers: { ETag: { description: "The agent's head: the new draft.", schema: { type: "string" } } },
        examples: {
          restored: { summary: "Draft 6 restores version 2", value: { ...ex.agentRecord, draft_version: 6 } },
        },
      },
    },
  }),
});
