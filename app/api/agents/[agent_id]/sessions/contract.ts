import * as ex from "@/lib/openapi/examples";
import { ListSessionsQuery, SessionLimits, SessionList } from "@/lib/conversations/schemas";
import { AGENT_ID, KEY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/sessions",
  auth: "accessKey",
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
    parameters: [AGENT_ID],
    queryDocs: {
      status: "Only sessions with this status (for example `active`).",
      since: "Only sessions with activity after this time (ISO 8601 date or date-time; without an offset, UTC).",
    },
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
