import { DeletedSecret, SecretParams, SecretRecord, SetSecretBody } from "@/lib/secrets/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const PUT = route({
  method: "PUT",
  path: "/api/console/secrets/[name]",
  auth: "console",
  responses: { 201: SecretRecord, 200: SecretRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS],
  params: SecretParams,
  body: SetSecretBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/secrets/[name]",
  auth: "console",
  responses: { 200: DeletedSecret },
  errors: [...CONSOLE_ADMIN_ERRORS, "secret_not_found", "secret_in_use"],
  params: SecretParams,
  admin: true,
});
