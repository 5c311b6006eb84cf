import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { AuditPage, AuditQuery } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/audit",
  auth: "member",
  params: OrgParams,
  admin: true,
  query: AuditQuery,
  responses: { 200: AuditPage },
  errors: [...ADMIN_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listAuditEvents",
    summary: "List the audit log",
    tag: "Audit log",
    description:
      "Admin only. Who did what in the organization, newest first: the actor (`user`, `access_key` or " +
      "`system`), the action, its target and the action's details. The console's filters: `action` " +
      "(one action, or a group with `group.*`), `from` and `to`. A page at a time: `next_cursor` (null on " +
      "the last page) passed as `cursor`, with the same filters, answers the next page.",
    responses: {
      "200": {
        description: "The events.",
        examples: {
          events: {
            summary: "A role change",
            value: {
              events: [
                {
                  event_id: "evt_0Qw2Er4Ty6Ui8Op1As3Df5",
                  at: "2026-11-28T10:00:00.000Z",
                  actor: { type: "user", id: "usr_0Hq2Lm5Np8Rt3Vw6Yz9Bc4", label: "ada@example.com" },
                  action: "member.role_changed",
                  target: { type: "user", id: "usr_0Tg5Hj8Kl1Zx4Cv7Bn2Mq9" },
                  data: { email: "grace@example.com", from: "support", to: "admin" },
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
