import { AlertRuleParams, AlertRulePatch, AlertRuleRecord, DeletedAlertRule } from "@/lib/alerts/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/alert-rules/[rule_id]",
  auth: "console",
  admin: true,
  params: AlertRuleParams,
  body: AlertRulePatch,
  responses: { 200: AlertRuleRecord },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "alert_rule_not_found",
    "invalid_callback_url",
    "agent_not_found",
  ],
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/alert-rules/[rule_id]",
  auth: "console",
  admin: true,
  params: AlertRuleParams,
  responses: { 200: DeletedAlertRule },
  errors: [...CONSOLE_ADMIN_ERRORS, "alert_rule_not_found"],
});
