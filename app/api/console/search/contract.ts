import { SearchQuery, SearchResult } from "@/lib/search/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/search",
  auth: "console",
  responses: { 200: SearchResult },
  errors: [...CONSOLE_ERRORS, "search_query_too_long", "invalid_search_field", "search_too_broad"],
  query: SearchQuery,
});
