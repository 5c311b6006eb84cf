import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { AlertRuleParams, AlertRulePatch, AlertRuleRecord, DeletedAlertRule } from "@/lib/alerts/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/alert-rules/[rule_id]",
  auth: "member",
  admin: true,
  params: AlertRuleParams,
  responses: { 200: AlertRuleRecord },
  errors: [...ADMIN_ERRORS, "invalid_request", "alert_rule_not_found"],
  openapi: () => ({
    operationId: "getAlertRule",
    summary: "Get an alert rule",
    tag: "Alerts",
    description:
      "Admin only. The rule and its state. A rule of another organization answers `404 alert_rule_not_found`.",
    responses: {
      "200": { description: "The rule.", examples: { rule: { summary: "A rule", value: ex.alertRuleRecord } } },
    },
  }),
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/alert-rules/[rule_id]",
  auth: "member",
  admin: true,
  params: AlertRuleParams,
  body: AlertRulePatch,
  responses: { 200: AlertRuleRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "alert_rule_not_found", "invalid_callback_url", "agent_not_found"],
  openapi: () => ({
    operationId: "updateAlertRule",
    summary: "Change an alert rule",
    tag: "Alerts",
    description:
      "Admin only. Only the fields given change (`null` clears `agent_id`, `url`, `email`). Disabling a firing " +
      "rule, or changing its `kind` or `agent_id`, ends its alert without an `alert.resolved` event.",
    bodyExamples: {
      disable: { summary: "Disable it", value: { enabled: false } },
    },
    responses: {
      "200": {
        description: "The rule.",
        examples: { changed: { summary: "Disabled", value: { ...ex.alertRuleRecord, enabled: false } } },
      },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/alert-rules/[rule_id]",
  auth: "member",
  admin: true,
  params: AlertRuleParams,
  responses: { 200: DeletedAlertRule },
  errors: [...ADMIN_ERRORS, "invalid_request", "alert_rule_not_found"],
  openapi: () => ({
    operationId: "deleteAlertRule",
    summary: "Delete an alert rule",
    tag: "Alerts",
    description: "Admin only. Its history stays (each event keeps the rule's name).",
    responses: {
      "200": {
        description: "Deleted.",
        examples: { deleted: { summary: "Deleted", value: { rule_id: ex.alertRuleRecord.rule_id, deleted: true } } },
      },
    },
  }),
});
