import { AlertRuleBody, AlertRuleList, AlertRuleListQuery, AlertRuleRecord } from "@/lib/alerts/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

// Admins only, reading included: a rule's URL and email say where the organization's alerts go.
export const GET = route({
  method: "GET",
  path: "/api/console/alert-rules",
  auth: "console",
  admin: true,
  query: AlertRuleListQuery,
  responses: { 200: AlertRuleList },
  errors: [...CONSOLE_ERRORS, "forbidden"],
});

export const POST = route({
  method: "POST",
  path: "/api/console/alert-rules",
  auth: "console",
  admin: true,
  body: AlertRuleBody,
  responses: { 201: AlertRuleRecord },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_callback_url",
    "agent_not_found",
    "too_many_alert_rules",
  ],
});
