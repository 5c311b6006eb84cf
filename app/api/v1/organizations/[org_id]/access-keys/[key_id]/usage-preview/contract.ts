import { USER_ERRORS } from "@/lib/openapi/management";
import { KeyUsagePreview, AccessKeyParams } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]/usage-preview",
  auth: "member",
  params: AccessKeyParams,
  responses: { 200: KeyUsagePreview },
  errors: [...USER_ERRORS, "access_key_not_found"],
  openapi: () => ({
    operationId: "previewAccessKeyUsage",
    summary: "What an Access Key is used for",
    tag: "Access Keys",
    description:
      "What revoking the key would break: its requests (messages and runs it triggered) in the last 24 hours " +
      "and 7 days, its last request, the agents it reached in 7 days, the end users (`user_id`, at most 20) " +
      "and the number of sessions and runs it started. Counts stop at 10,000 (`capped: true`).",
    responses: {
      "200": {
        description: "The key's usage.",
        examples: {
          used: {
            summary: "A key in use",
            value: {
              key_id: "key_0VdXj3Op5Qr6St7Uv8Wx9y",
              requests_24h: { count: 42, capped: false },
              requests_7d: { count: 310, capped: false },
              last_request_at: "2026-11-25T22:00:00.000Z",
              agents: [{ agent_id: "agt_0VdXgkF2a1B2c3D4e5F6g7", name: "Support bot" }],
              user_ids: ["customer-17"],
              more_user_ids: false,
              sessions_started: { count: 12, capped: false },
              runs_started: { count: 0, capped: false },
            },
          },
        },
      },
    },
  }),
});
