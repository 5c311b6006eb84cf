import * as ex from "@/lib/openapi/examples";
import { SessionParams, SessionRecord } from "@/lib/conversations/schemas";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions/[session_id]",
  auth: "accessKey",
  params: SessionParams,
  responses: { 200: SessionRecord },
  // invalid_request: a path the database cannot hold (a NUL: assertStorable in lib/http/handler.ts).
  errors: [...KEY_ERRORS, "runtime_not_applicable", "session_not_found", "invalid_request"],
  openapi: () => ({
    operationId: "getSession",
    summary: "Fetch a session",
    tag: "Conversations",
    responses: {
      "200": { description: "The session.", examples: { session: { summary: "A session", value: ex.sessionRecord } } },
    },
  }),
});
