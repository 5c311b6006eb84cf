import * as ex from "@/lib/openapi/examples";
import { SessionParams, SessionRecord } from "@/lib/conversations/schemas";
import { AGENT_ID, KEY_ERRORS, SESSION_ID } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions/[session_id]",
  auth: "accessKey",
  params: SessionParams,
  responses: { 200: SessionRecord },
  errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found"],
  openapi: () => ({
    operationId: "getSession",
    summary: "Fetch a session",
    tag: "Conversations",
    parameters: [AGENT_ID, SESSION_ID],
    responses: {
      "200": { description: "The session.", examples: { session: { summary: "A session", value: ex.sessionRecord } } },
    },
  }),
});
