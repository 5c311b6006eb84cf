import { VersionParams, VersionRecord } from "@/lib/agents/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/versions/[version]",
  auth: "console",
  params: VersionParams,
  responses: { 200: VersionRecord },
  errors: [...CONSOLE_ERRORS, "agent_not_found", "agent_version_not_found"],
});
