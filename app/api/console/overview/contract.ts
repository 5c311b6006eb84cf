import { Overview } from "@/lib/orgs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/overview",
  auth: "console",
  responses: { 200: Overview },
  errors: [...CONSOLE_ERRORS],
});
