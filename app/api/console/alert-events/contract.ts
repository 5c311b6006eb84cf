import { AlertEventList, AlertEventListQuery } from "@/lib/alerts/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

// Every member reads the history (docs/console.md, Alerts): it says what happened, not where it goes.
export const GET = route({
  method: "GET",
  path: "/api/console/alert-events",
  auth: "console",
  query: AlertEventListQuery,
  responses: { 200: AlertEventList },
  errors: [...CONSOLE_ERRORS],
});
