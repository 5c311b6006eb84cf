import * as ex from "@/lib/http/openapi/examples";
import { SessionParams, SessionRecord } from "@/lib/conversations/schemas";
import { jsonContent } from "@/lib/http/openapi/builder";
import { AGENT_ID, KEY_ERRORS, SESSION_ID, ok } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions/[session_id]",
  auth: "accessKey",
  params: SessionParams,
  errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found"],
  openapi: (c) => ({
    operationId: "getSession",
    summary: "Fetch a session",
    tag: "Conversations",
    parameters: [AGENT_ID, SESSION_ID],
    responses: {
      "200": ok(
        "The session.",
        jsonContent(c.ref("SessionRecord", SessionRecord), {
          session: { summary: "A session", value: ex.sessionRecord },
        }),
      ),
    },
  }),
});
