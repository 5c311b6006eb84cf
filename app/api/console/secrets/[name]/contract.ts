import { SecretParams, SetSecretBody } from "@/lib/secrets/schemas";
import { route } from "@/lib/http/contract";

export const PUT = route({
  method: "PUT",
  path: "/api/console/secrets/[name]",
  auth: "console",
  params: SecretParams,
  body: SetSecretBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/secrets/[name]",
  auth: "console",
  params: SecretParams,
  admin: true,
});
