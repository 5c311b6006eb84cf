import { JsonObject } from "@/lib/validate";
import { ConsoleChatReply } from "@/lib/conversations/schemas";
import { CONSOLE_START_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/chat",
  auth: "console",
  responses: { 200: ConsoleChatReply },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    ...CONSOLE_START_ERRORS,
    "session_not_found",
    "upstream_timeout",
    "upstream_error",
    "service_unavailable",
  ],
  body: JsonObject,
});
