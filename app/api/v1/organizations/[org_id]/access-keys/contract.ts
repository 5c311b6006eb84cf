import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { ManagementAccessKeyList, ManagementKeyListQuery, MintKeyBody, MintedAccessKey } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/access-keys",
  auth: "member",
  params: OrgParams,
  body: MintKeyBody,
  admin: true,
  responses: { 201: MintedAccessKey },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS],
  openapi: () => ({
    operationId: "mintAccessKey",
    summary: "Mint an Access Key",
    tag: "Access Keys",
    description:
      "Admin only. The answer carries the raw key in `key`, this once: the service keeps only its SHA-256 " +
      "hash. `permissions` defaults to `agents:invoke`; `rate_limit_per_minute` absent or `null` follows the " +
      "service default.",
    bodyExamples: {
      key: { summary: "A key for billing", value: ex.mintKeyBody },
    },
    responses: {
      "201": {
        description: "The key, with its raw secret.",
        examples: { minted: { summary: "Minted", value: { ...ex.accessKeyRecord, key: ex.ID.rawKey } } },
      },
    },
  }),
});

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/access-keys",
  auth: "member",
  params: OrgParams,
  query: ManagementKeyListQuery,
  responses: { 200: ManagementAccessKeyList },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listAccessKeys",
    summary: "List Access Keys",
    tag: "Access Keys",
    description:
      "Newest first, never the secrets; a page at a time: `next_cursor` (null on the last page) passed as " +
      "`cursor` answers the next page.",
    responses: {
      "200": {
        description: "The keys.",
        examples: {
          keys: {
            summary: "One key",
            value: {
              access_keys: [ex.accessKeyRecord],
              default_rate_limit_per_minute: 600,
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
