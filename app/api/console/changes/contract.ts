import { ChangesAnswer, ChangesQuery } from "@/lib/reviews/schemas";
import { CONSOLE_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/changes",
  auth: "console",
  responses: { 200: ChangesAnswer },
  errors: [...CONSOLE_ERRORS, "rate_limited", "session_not_found"],
  query: ChangesQuery,
});
