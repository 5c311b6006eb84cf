import { RotatedSecret, SigningSecretInfo } from "@/lib/callbacks/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/webhooks/secret",
  auth: "console",
  responses: { 200: SigningSecretInfo },
  errors: [...CONSOLE_ERRORS],
});

export const POST = route({
  method: "POST",
  path: "/api/console/webhooks/secret",
  auth: "console",
  responses: { 201: RotatedSecret },
  errors: [...CONSOLE_ADMIN_ERRORS],
  admin: true,
});
