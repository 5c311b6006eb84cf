import { AlertRuleParams, AlertTestSent } from "@/lib/alerts/schemas";
import { CONSOLE_ADMIN_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/alert-rules/[rule_id]/test",
  auth: "console",
  admin: true,
  params: AlertRuleParams,
  responses: { 202: AlertTestSent },
  errors: [...CONSOLE_ADMIN_ERRORS, "alert_rule_not_found"],
});
