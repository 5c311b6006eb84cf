import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { TimelinePage, TimelineParams, TimelineQuery } from "@/lib/search/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/users/[user_id]/timeline",
  auth: "member",
  params: TimelineParams,
  query: TimelineQuery,
  responses: { 200: TimelinePage },
  errors: [...USER_ERRORS, "invalid_request", "search_too_broad"],
  openapi: () => ({
    operationId: "getEndUserTimeline",
    summary: "An end user's case timeline",
    tag: "Search and timelines",
    description:
      "Every member. Everything the organization holds about one end user (not a member: the `user_id` of " +
      "triggers), newest first: the Access Keys' triggers, sessions, messages, runs, reviews and callback " +
      "deliveries, each with a summary and its console page (`href`). An unknown user has no entries. A page " +
      "at a time: `next_cursor` (null on the last page) passed as `cursor` answers the next page. A page that " +
      "takes longer than its time bound is `422 search_too_broad`.",
    responses: {
      "200": {
        description: "The timeline.",
        examples: {
          timeline: {
            summary: "A session and its first message",
            value: {
              user_id: "cust_42",
              entries: [
                {
                  kind: "message",
                  id: ex.ID.userMessage,
                  at: "2026-11-25T22:00:00.000Z",
                  summary: "user message: Where is my order?",
                  href: `/sessions/${ex.ID.session}#${ex.ID.userMessage}`,
                },
                {
                  kind: "session",
                  id: ex.ID.session,
                  at: "2026-11-25T22:00:00.000Z",
                  summary: "Session started with Support bot (webhook)",
                  href: `/sessions/${ex.ID.session}`,
                },
              ],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
