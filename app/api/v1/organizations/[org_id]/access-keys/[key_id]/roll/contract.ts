import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { MintedAccessKey, RollKeyBody, AccessKeyParams } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/access-keys/[key_id]/roll",
  auth: "member",
  params: AccessKeyParams,
  body: RollKeyBody,
  admin: true,
  responses: { 201: MintedAccessKey },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "access_key_not_found",
    "access_key_rolled",
    "access_key_revoked",
    "access_key_expired_for_good",
  ],
  openapi: () => ({
    operationId: "rollAccessKey",
    summary: "Roll an Access Key",
    tag: "Access Keys",
    description:
      "Admin only. Mints a successor with the same name, permissions, rate limit, agent scope and expiry, and " +
      "answers it as minting does (the raw key, this once). The old key keeps working for " +
      "`grace_period_seconds` (0: revoked at once; else 3600 to 604800): from its `revoke_at` it is refused, " +
      "and the worker revokes it. A key already rolled answers `409 access_key_rolled`; a revoked one " +
      "`409 access_key_revoked`; an expired one `409 access_key_expired_for_good`.",
    bodyExamples: {
      day: { summary: "A day of grace", value: { grace_period_seconds: 86400 } },
    },
    responses: {
      "201": {
        description: "The successor, with its raw secret.",
        examples: {
          rolled: {
            summary: "Rolled",
            value: { ...ex.accessKeyRecord, rolled_from_key_id: ex.ID.key, key: ex.ID.rawKey },
          },
        },
      },
    },
  }),
});
