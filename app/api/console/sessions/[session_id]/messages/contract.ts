import { OrgMessagePage, OrgMessagesQuery } from "@/lib/conversations/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/sessions/[session_id]/messages",
  auth: "console",
  responses: { 200: OrgMessagePage },
  errors: [...CONSOLE_ERRORS, "session_not_found"],
  query: OrgMessagesQuery,
});
