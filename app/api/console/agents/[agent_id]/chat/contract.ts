import { JsonObject } from "@/lib/validate";
import { ConsoleChatReply } from "@/lib/conversations/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/chat",
  auth: "console",
  responses: { 200: ConsoleChatReply },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    "agent_not_found",
    "runtime_not_applicable",
    "file_not_found",
    "invalid_callback_url",
    "session_not_found",
    "agent_archived",
    "upstream_timeout",
    "upstream_error",
    "service_unavailable",
  ],
  body: JsonObject,
});
