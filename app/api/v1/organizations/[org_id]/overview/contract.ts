import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { Overview } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/overview",
  auth: "member",
  params: OrgParams,
  responses: { 200: Overview },
  errors: [...USER_ERRORS],
  openapi: () => ({
    operationId: "getOverview",
    summary: "The organization at a glance",
    tag: "Organization overview",
    description:
      "Every member. The console's home page: how many agents, live Access Keys and sessions today, runs by " +
      "status; the runs with items waiting for review; the latest failed runs and replies; live keys that " +
      "expire within 7 days, soonest first.",
    responses: {
      "200": {
        description: "The overview.",
        examples: {
          overview: {
            summary: "A busy day",
            value: {
              counts: { agents: 4, active_keys: 3, sessions_today: 128, runs: { completed: 40, needs_review: 1 } },
              needs_review: [
                {
                  run_id: ex.ID.run,
                  agent_id: ex.ID.workflowAgent,
                  agent_name: "Invoice checker",
                  items_needs_review: 2,
                  updated_at: "2026-11-25T22:00:00.000Z",
                },
              ],
              recent_errors: [
                {
                  kind: "message",
                  id: ex.ID.reply,
                  session_id: ex.ID.session,
                  agent_id: ex.ID.agent,
                  agent_name: "Support bot",
                  message: "The agent runtime failed to produce a reply.",
                  at: "2026-11-25T22:00:04.250Z",
                },
              ],
              expiring_keys: [
                { key_id: ex.ID.key, name: "billing", start: "ak_4kPz", expires_at: "2026-11-30T00:00:00.000Z" },
              ],
            },
          },
        },
      },
    },
  }),
});
