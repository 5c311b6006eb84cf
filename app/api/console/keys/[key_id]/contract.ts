import { AccessKeyRecord, UpdateKeyBody } from "@/lib/keys/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/keys/[key_id]",
  auth: "console",
  responses: { 200: AccessKeyRecord },
  errors: [...CONSOLE_ERRORS, "access_key_not_found"],
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/keys/[key_id]",
  auth: "console",
  body: UpdateKeyBody,
  responses: { 200: AccessKeyRecord },
  errors: [
    ...CONSOLE_ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "access_key_not_found",
    "access_key_revoked",
    "access_key_expired_for_good",
  ],
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/keys/[key_id]",
  auth: "console",
  responses: { 200: AccessKeyRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, "access_key_not_found"],
  admin: true,
});
