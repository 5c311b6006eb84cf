import * as ex from "@/lib/http/openapi/examples";
import { ADMIN_ERRORS, KEY_ID, ORG_ID } from "@/lib/http/openapi/management";
import { AccessKeyRecord } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]",
  auth: "userToken",
  admin: true,
  responses: { 200: AccessKeyRecord },
  errors: [...ADMIN_ERRORS, "access_key_not_found"],
  openapi: () => ({
    operationId: "revokeAccessKey",
    summary: "Revoke an Access Key",
    tag: "Access Keys",
    description:
      "Admin only. The key is refused (`401`) within seconds on every instance. Idempotent: revoking again " +
      "answers the same record.",
    parameters: [ORG_ID, KEY_ID],
    responses: {
      "200": {
        description: "The revoked key.",
        examples: { revoked: { summary: "Revoked", value: { ...ex.accessKeyRecord, revoked_at: ex.EXAMPLE_TIME } } },
      },
    },
  }),
});
