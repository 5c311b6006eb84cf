import { AgentRecord, RestoreBody, VersionParams } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/versions/[version]/restore",
  auth: "console",
  admin: true,
  params: VersionParams,
  body: RestoreBody,
  bodyOptional: true,
  responses: { 200: AgentRecord },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "agent_not_found",
    "agent_version_not_found",
    "version_is_draft",
    "draft_conflict",
  ],
});
