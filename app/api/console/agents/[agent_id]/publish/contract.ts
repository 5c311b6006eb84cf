import { AgentRecord, PublishBody, PublishPreview } from "@/lib/agents/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/publish",
  auth: "console",
  admin: true,
  body: PublishBody,
  bodyOptional: true,
  responses: { 200: AgentRecord.or(PublishPreview) },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_agent",
    "agent_not_found",
    "nothing_to_publish",
    "rollout_in_progress",
    "draft_conflict",
  ],
});
