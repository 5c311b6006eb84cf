import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { AlertRuleParams, AlertTestSent } from "@/lib/alerts/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/alert-rules/[rule_id]/test",
  auth: "member",
  admin: true,
  params: AlertRuleParams,
  responses: { 202: AlertTestSent },
  errors: [...ADMIN_ERRORS, "invalid_request", "alert_rule_not_found"],
  openapi: () => ({
    operationId: "testAlertRule",
    summary: "Send a test alert",
    tag: "Alerts",
    description:
      "Admin only. Enqueues a signed `alert.test` event to the rule's `url` through the completion callbacks' " +
      "outbox (same signing and retries), so you can check your receiver; its delivery is in the console's " +
      "Webhooks deliveries. A rule without a `url`: `400 invalid_request` naming `url`. No history row.",
    responses: {
      "202": {
        description: "Enqueued.",
        examples: {
          sent: {
            summary: "Enqueued",
            value: {
              rule_id: "alr_0Rk3w2Zq8mN4pL7xYt2Bc9",
              delivery_id: "dlv_0Rk3w2Zq8mN4pL7xYt2Bc9",
              url: "https://hooks.example.com/alerts",
            },
          },
        },
      },
    },
  }),
});
