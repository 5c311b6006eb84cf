import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { AlertRuleBody, AlertRuleList, AlertRuleListQuery, AlertRuleRecord } from "@/lib/alerts/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/alert-rules",
  auth: "member",
  params: OrgParams,
  body: AlertRuleBody,
  admin: true,
  responses: { 201: AlertRuleRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "agent_not_found", "too_many_alert_rules"],
  openapi: () => ({
    operationId: "createAlertRule",
    summary: "Create an alert rule",
    tag: "Alerts",
    description:
      "Admin only. `kind` says what is watched and the unit of `threshold` (docs/api.md, Alerts): `error_rate` " +
      "(%), `latency_p95` (ms), `review_waiting` (minutes), `callbacks_failing` (deliveries), `key_expiring` " +
      "(days; fires when BELOW), `rate_limit` (%). `agent_id` must be an agent of the organization (else " +
      "`404 agent_not_found`); `url` is checked as a `callback_url`. At most 100 rules per organization.",
    bodyExamples: {
      rule: {
        summary: "Errors of an agent over 10 %",
        value: {
          name: "Support bot errors",
          kind: "error_rate",
          agent_id: "agt_0VdXgkF2a1B2c3D4e5F6g7",
          threshold: 10,
          window_minutes: 15,
          min_volume: 20,
          url: "https://hooks.example.com/alerts",
        },
      },
    },
    responses: {
      "201": { description: "The rule.", examples: { created: { summary: "Created", value: ex.alertRuleRecord } } },
    },
  }),
});

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/alert-rules",
  auth: "member",
  params: OrgParams,
  admin: true,
  query: AlertRuleListQuery,
  responses: { 200: AlertRuleList },
  errors: [...ADMIN_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listAlertRules",
    summary: "List alert rules",
    tag: "Alerts",
    description:
      "Admin only. Oldest first, each with its state (`firing`, `fired_at`, `resolved_at`, `last_value`); a page " +
      "at a time: `next_cursor` (null on the last page) passed as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The rules.",
        examples: {
          rules: {
            summary: "One rule",
            value: { alert_rules: [ex.alertRuleRecord], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});
