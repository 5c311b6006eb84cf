import { MintedAccessKey, RollKeyBody } from "@/lib/keys/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/keys/[key_id]/roll",
  auth: "console",
  body: RollKeyBody,
  responses: { 201: MintedAccessKey },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "access_key_not_found",
    "access_key_rolled",
    "access_key_revoked",
    "access_key_expired_for_good",
  ],
  admin: true,
});
