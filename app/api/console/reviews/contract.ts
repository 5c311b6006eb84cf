import { ReviewPage, ReviewsQuery } from "@/lib/reviews/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/reviews",
  auth: "console",
  responses: { 200: ReviewPage },
  errors: [...CONSOLE_ERRORS],
  query: ReviewsQuery,
});
