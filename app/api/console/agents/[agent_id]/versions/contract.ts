import { VersionList, VersionListQuery } from "@/lib/agents/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/versions",
  auth: "console",
  query: VersionListQuery,
  responses: { 200: VersionList },
  errors: [...CONSOLE_ERRORS, "agent_not_found"],
});
