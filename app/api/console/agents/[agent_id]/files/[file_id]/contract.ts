import { DeletedFile, FileLink, FileParams } from "@/lib/files/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]/files/[file_id]",
  auth: "console",
  responses: { 200: FileLink },
  errors: [...CONSOLE_ERRORS, "agent_not_found", "not_found"],
  params: FileParams,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/agents/[agent_id]/files/[file_id]",
  auth: "console",
  responses: { 200: DeletedFile },
  errors: [...CONSOLE_ADMIN_ERRORS, "agent_not_found", "not_found"],
  params: FileParams,
  admin: true,
});
