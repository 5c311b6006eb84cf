import { TimelinePage, TimelineParams, TimelineQuery } from "@/lib/search/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/users/[user_id]/timeline",
  auth: "console",
  responses: { 200: TimelinePage },
  errors: [...CONSOLE_ERRORS, "search_too_broad"],
  params: TimelineParams,
  query: TimelineQuery,
});
