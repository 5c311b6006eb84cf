import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { AccessKeyRecord, UpdateKeyBody, AccessKeyParams } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]",
  auth: "member",
  params: AccessKeyParams,
  responses: { 200: AccessKeyRecord },
  errors: [...USER_ERRORS, "access_key_not_found"],
  openapi: () => ({
    operationId: "getAccessKey",
    summary: "Get an Access Key",
    tag: "Access Keys",
    description: "Every member. The key's record (its start, never the secret), revoked or not.",
    responses: {
      "200": { description: "The key.", examples: { key: { summary: "A key", value: ex.accessKeyRecord } } },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]",
  auth: "member",
  params: AccessKeyParams,
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
    responses: {
      "200": {
        description: "The revoked key.",
        examples: { revoked: { summary: "Revoked", value: { ...ex.accessKeyRecord, revoked_at: ex.EXAMPLE_TIME } } },
      },
    },
  }),
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]",
  auth: "member",
  params: AccessKeyParams,
  body: UpdateKeyBody,
  admin: true,
  responses: { 200: AccessKeyRecord },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "access_key_not_found",
    "access_key_revoked",
    "access_key_expired_for_good",
  ],
  openapi: () => ({
    operationId: "updateAccessKey",
    summary: "Change an Access Key",
    tag: "Access Keys",
    description:
      "Admin only. Any of `name`, `rate_limit_per_minute`, `expires_at`, `agent_ids` (`null` clears the limit, " +
      "the expiry, the scope); the secret never changes. Takes effect within seconds on every instance; the " +
      "audit log records the values before and after. A revoked key answers `409 access_key_revoked`; an " +
      "expired key's expiry cannot change (`409 access_key_expired_for_good`).",
    bodyExamples: {
      expiry: { summary: "Expire at the end of the year", value: { expires_at: "2026-12-31T23:59:59Z" } },
    },
    responses: {
      "200": {
        description: "The key.",
        examples: {
          changed: {
            summary: "With an expiry",
            value: { ...ex.accessKeyRecord, expires_at: "2026-12-31T23:59:59.000Z" },
          },
        },
      },
    },
  }),
});
