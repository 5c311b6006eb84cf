import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { SEARCH_GROUP_SIZE, SEARCH_MAX_CHARS, SearchQuery, SearchResult } from "@/lib/search/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/search",
  auth: "member",
  params: OrgParams,
  query: SearchQuery,
  responses: { 200: SearchResult },
  errors: [...USER_ERRORS, "invalid_request", "search_query_too_long", "invalid_search_field", "search_too_broad"],
  openapi: () => ({
    operationId: "searchOrganization",
    summary: "Search the organization",
    tag: "Search and timelines",
    description:
      "Every member. The console's search box (docs/console.md, Search): `q` is read as an id or a prefix of " +
      "one (8 characters or more: `exact` names the one object it matches), as `field:value` on session " +
      "metadata and run inputs, or as words in messages and run items; an end user's id also answers their " +
      `timeline (\`user\`). Hits come grouped by kind, newest first, at most ${SEARCH_GROUP_SIZE} each (\`more\`: ` +
      `there are others), each with its console page (\`href\`). Longer than ${SEARCH_MAX_CHARS} characters: ` +
      "`400 search_query_too_long`; a search that takes longer than its time bound: `422 search_too_broad`.",
    responses: {
      "200": {
        description: "What matched.",
        examples: {
          words: {
            summary: "Words found in a message",
            value: {
              mode: "text",
              exact: null,
              user: null,
              groups: [
                {
                  kind: "message",
                  label: "Messages",
                  hits: [
                    {
                      kind: "message",
                      id: ex.ID.userMessage,
                      title: "Support bot",
                      summary: "Where is my order?",
                      at: "2026-11-25T22:00:00.000Z",
                      href: `/sessions/${ex.ID.session}#${ex.ID.userMessage}`,
                    },
                  ],
                  more: false,
                },
              ],
            },
          },
          id: {
            summary: "A session id",
            value: {
              mode: "id",
              exact: { kind: "session", id: ex.ID.session, href: `/sessions/${ex.ID.session}` },
              user: null,
              groups: [],
            },
          },
        },
      },
    },
  }),
});
