import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { UsageQuery, UsageReport } from "@/lib/usage/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/usage",
  auth: "console",
  query: UsageQuery,
  responses: { 200: UsageReport },
  errors: [...CONSOLE_ERRORS],
});
