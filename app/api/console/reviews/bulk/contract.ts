import { BulkDecideBody, BulkDecideResult } from "@/lib/reviews/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/reviews/bulk",
  auth: "console",
  responses: { 200: BulkDecideResult },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS],
  body: BulkDecideBody,
});
