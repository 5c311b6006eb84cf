import { OrgSessionRecord } from "@/lib/conversations/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/sessions/[session_id]",
  auth: "console",
  responses: { 200: OrgSessionRecord },
  errors: [...CONSOLE_ERRORS, "session_not_found"],
});
