import { USER_ERRORS } from "@/lib/openapi/management";
import { AlertEventList, AlertEventListQuery } from "@/lib/alerts/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/alert-events",
  auth: "member",
  params: OrgParams,
  query: AlertEventListQuery,
  responses: { 200: AlertEventList },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listAlertEvents",
    summary: "List the alert history",
    tag: "Alerts",
    description:
      "Every member (the console shows support the history). Each time a rule fired or resolved: its value, when, and where it was delivered " +
      "(`delivery_id` of the signed event, `delivered_to`: the URL, and the `mailto:` address only when the " +
      "server sends email: without `SMTP_URL` no email was sent). Newest first, a " +
      "page at a time; `rule_id` keeps one rule's (a rule deleted since still has its rows).",
    responses: {
      "200": {
        description: "The events.",
        examples: {
          events: {
            summary: "One alert fired",
            value: {
              alert_events: [
                {
                  alert_id: "alt_0Rk3w2Zq8mN4pL7xYt2Bc9",
                  rule_id: "alr_0Rk3w2Zq8mN4pL7xYt2Bc9",
                  rule_name: "Support bot errors",
                  event: "fired",
                  value: 37.5,
                  delivery_id: "dlv_0Rk3w2Zq8mN4pL7xYt2Bc9",
                  delivered_to: ["https://hooks.example.com/alerts", "mailto:oncall@example.com"],
                  rollout: null,
                  created_at: "2026-11-20T10:05:00.000Z",
                },
              ],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
