import * as ex from "@/lib/openapi/examples";
import { ListSessionsQuery, SessionLimits, SessionList } from "@/lib/conversations/schemas";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { AgentParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions",
  auth: "accessKey",
  params: AgentParams,
  query: ListSessionsQuery,
  responses: { 200: SessionList },
  errors: [...KEY_ERRORS, "invalid_request", "runtime_not_applicable"],
  openapi: () => ({
    operationId: "listSessions",
    summary: "List sessions",
    tag: "Conversations",
    description:
      "Production sessions of a conversational agent, most recently active first. Other query parameters " +
      "are ignored. `next_cursor` (null on the last page) passed as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The sessions.",
        examples: {
          sessions: {
            summary: "One session",
            value: { sessions: [ex.sessionListItem], limit: SessionLimits.default, next_cursor: null },
          },
        },
      },
    },
  }),
});
