import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { ManagementSecretList, ManagementSecretListQuery } from "@/lib/secrets/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/secrets",
  auth: "member",
  params: OrgParams,
  admin: true,
  query: ManagementSecretListQuery,
  responses: { 200: ManagementSecretList },
  errors: [...ADMIN_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listSecrets",
    summary: "List organization secrets",
    tag: "Organization secrets",
    description:
      "Admin only. Names, a 4-character hint and times, by name; never a value. `used_by` lists the agents " +
      "whose configuration names each secret. A page at a time: `next_cursor` (null on the last page) passed " +
      "as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The secrets.",
        examples: {
          secrets: { summary: "One secret", value: { secrets: [ex.secretRecord], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});
